import { explain } from '../api/errors.js';

/** A failed call, said as a sentence (role=alert, so screen readers announce it), with its next step. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  const { text, action } = explain(error);
  return (
    <p class="error" role="alert">
      {text}
      {action ? (
        <>
          {' '}
          <a href={action.href}>{action.label}</a>
        </>
      ) : null}
    </p>
  );
}

/** A success or progress notice, announced politely. */
export function Notice({ children }: { children: preact.ComponentChildren }) {
  return (
    <p class="notice" role="status">
      {children}
    </p>
  );
}
