import { errorMessages } from '@/lib/api-client';

interface ErrorListProps {
  error: unknown;
  /** Sentence shown above the messages, e.g. "Could not load links." */
  title?: string;
}

/** Readable API errors (one line per problem), announced to screen readers. */
export function ErrorList({ error, title }: ErrorListProps) {
  if (!error) return null;
  const messages = errorMessages(error);
  return (
    <div className="error-box" role="alert">
      {title ? <p className="error-title">{title}</p> : null}
      <ul>
        {messages.map((message, index) => (
          <li key={index}>{message}</li>
        ))}
      </ul>
    </div>
  );
}
