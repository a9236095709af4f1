import './translate.css';
import { useSession } from '../app/ServicesContext';
import { NotFoundScreen } from '../screens/NotFoundScreen';
import { HelpEditorScreen } from './HelpEditorScreen';
import { mayTranslate } from './rights';
import { TranslationScreen } from './TranslationScreen';

/** The three translators' screens under /staff/translate; others are told the page does not exist. */
export function TranslateScreens({ editor }: { editor: 'calculator' | 'documents' | 'help' }) {
  const user = useSession((snapshot) => snapshot.context.user);
  if (!mayTranslate(user)) return <NotFoundScreen />;
  if (editor === 'help') return <HelpEditorScreen />;
  return <TranslationScreen key={editor} scope={editor} />;
}
