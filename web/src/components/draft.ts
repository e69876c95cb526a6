import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { ApiError } from '../api/client';
import { dropDraft, keepDraft, takeDraft } from '../api/session';

/**
 * A form's values outliving a session that expires as they are sent: `send` keeps them while the
 * request runs and drops them on any answer but a 401 (which ends the session, api/client.ts); once
 * the same person has signed in again and the form is drawn on the same page, `restore` gets them
 * back, unsent. `name` tells the page's forms apart (a row's id where there is one per row).
 */
export function useDraft(name: string, restore: (values: Record<string, unknown>) => void) {
  const key = [useLocation().pathname, name].join('#');
  useEffect(() => {
    const values = takeDraft(key);
    if (values) restore(values);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
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
