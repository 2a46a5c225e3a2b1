/** Answering a pending request: POST /api/pending/:id, then it leaves the list (errors stay shown). */
import { useState } from 'preact/hooks';
import { UiRequestError } from './api-client.js';
import { errorText } from './format.js';
import type { UiFieldError } from './ui-types.js';
import { usePage } from './use-live-store.js';

export function usePendingAnswer(id: string): {
  busy: boolean;
  error: string | undefined;
  fieldErrors: UiFieldError[];
  answer(body: Record<string, unknown>): Promise<void>;
} {
  const { api, store } = usePage();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [fieldErrors, setFieldErrors] = useState<UiFieldError[]>([]);
  return {
    busy,
    error,
    fieldErrors,
    async answer(body) {
      setBusy(true);
      setError(undefined);
      setFieldErrors([]);
      try {
        await api.answerPending(id, body);
        store.dropPending(id);
      } catch (problem) {
        setError(errorText(problem));
        if (problem instanceof UiRequestError) setFieldErrors(problem.body.fields ?? []);
        setBusy(false);
      }
    },
  };
}
