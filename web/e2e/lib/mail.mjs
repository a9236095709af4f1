// Reads the e-mails a server without SMTP writes as .eml files (E2E_MAIL_DIR).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const mailDir = process.env.E2E_MAIL_DIR;

/** Waits for a mail to `to` holding a link whose path contains `pathPart`; returns the link. */
export async function waitForLink(to, pathPart, { timeoutMs = 15_000, after = 0 } = {}) {
  if (!mailDir) throw new Error('E2E_MAIL_DIR is not set');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const message of await readMessages(after)) {
      if (!message.toLowerCase().includes(to.toLowerCase())) continue;
      const link = findLink(message, pathPart);
      if (link) return link;
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`no mail to ${to} with a ${pathPart} link within ${timeoutMs} ms`);
}

/** Files are named by send time, so the newest is last; `after` skips that many. */
export async function mailCount() {
  if (!mailDir) return 0;
  return (await listMail()).length;
}

async function listMail() {
  try {
    return (await readdir(mailDir)).filter((name) => name.endsWith('.eml')).sort();
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
}

async function readMessages(after) {
  const names = (await listMail()).slice(after);
  return Promise.all(names.map(async (name) => decodeQuotedPrintable(await readFile(join(mailDir, name), 'utf8'))));
}

function decodeQuotedPrintable(text) {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

function findLink(message, pathPart) {
  for (const match of message.matchAll(/https?:\/\/[^\s"'<>]+/g)) {
    const link = match[0].replace(/&amp;/g, '&');
    if (link.includes(pathPart)) return link;
  }
  return null;
}
