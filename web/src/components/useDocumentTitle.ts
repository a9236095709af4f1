import { useEffect } from 'react';
import { PRODUCT_NAME } from './Brand';

export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · ${PRODUCT_NAME}`;
  }, [title]);
}
