import { useTranslation } from 'react-i18next';
import type { Message } from '../forms/messages';

/** Words a message in the current language. */
export function useMessageText(): (message: Message) => string {
  const { t, i18n } = useTranslation();
  // Message keys are built at run time, so they cannot be checked against the catalogue type.
  const translate = t as unknown as (key: string, values?: Record<string, string>) => string;
  return (message) => {
    if ('key' in message) return translate(message.key, message.values);
    // Server text may be a catalogue key when the server chose to send one.
    return i18n.exists(message.text) ? translate(message.text) : message.text;
  };
}

export function MessageList({ id, messages }: { id?: string; messages: readonly Message[] | undefined }) {
  const text = useMessageText();
  if (!messages || messages.length === 0) return null;
  return (
    <ul className="field-errors" id={id}>
      {messages.map((message, index) => (
        <li key={index}>{text(message)}</li>
      ))}
    </ul>
  );
}
