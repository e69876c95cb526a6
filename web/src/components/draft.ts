import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { ApiError } from '../api/client';
import { dropDraft, keepDraft, onSessionEnding, takeDraft } from '../api/session';

/**
 * A form's values outliving a session that expires as they are sent: `send` keeps them while the
 * request runs and drops them on any answer but a 401 (which ends the session, api/client.ts); once
 * the same person has signed in again and the form is drawn on the same page, `restore` gets them
 * back, unsent; the same while `open` says the form is open, whatever request met the refused
 * token. `name` tells the page's forms apart (a row's id where there is one per row).
 */
export function useDraft(name: string, restore: (values: Record<string, unknown>) => void, open?: { opened: boolean; values: () => Record<string, unknown> }) {
  const key = [useLocation().pathname, name].join('#');
  useEffect(() => {
    const values = takeDraft(key);
    if (values) restore(values);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  // also when the session ends while the form is only being typed (a list read again in the background met the refused token)
  const opened = open?.opened ?? false;
  const values = useRef(open?.values);
  values.current = open?.values;
  useEffect(() => (opened ? onSessionEnding(() => values.current && keepDraft(key, values.current())) : undefined), [opened, key]);
  return async function send<T>(values: Record<string, unknown>, request: () => Promise<T>): Promise<T> {
    keepDraft(key, values);
    try {
      const output = await request();
      dropDraft(key);
      return output;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) dropDraft(key);
      throw error;
    }
  };
}
