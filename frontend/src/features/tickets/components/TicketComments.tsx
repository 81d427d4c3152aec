import { useState } from 'react';

import { ErrorList } from '@/components/ErrorList';
import { formatTime } from '@/lib/format';

import type { TicketComment } from '../api/types';
import { useCommentOnTicket } from '../api/useCommentOnTicket';

interface TicketCommentsProps {
  ticketId: number;
  comments: TicketComment[];
  canComment: boolean;
}

export function TicketComments({ ticketId, comments, canComment }: TicketCommentsProps) {
  const [text, setText] = useState('');
  const comment = useCommentOnTicket(ticketId);

  return (
    <div className="ticket-comments">
      {comments.length === 0 ? (
        <p className="muted">No comments yet.</p>
      ) : (
        <ul className="comment-list" data-testid="ticket-comments">
          {comments.map((item) => (
            <li key={item.id}>
              <p className="comment-meta">
                <strong>{item.author ?? 'system'}</strong> <span className="muted">{formatTime(item.created)}</span>
              </p>
              <p className="comment-text">{item.text}</p>
            </li>
          ))}
        </ul>
      )}
      {canComment ? (
        <form
          className="stacked-form"
          aria-label="Add a comment"
          onSubmit={(event) => {
            event.preventDefault();
            comment.mutate({ text }, { onSuccess: () => setText('') });
          }}
        >
          <label>
            Comment
            <textarea rows={3} value={text} onChange={(event) => setText(event.target.value)} />
          </label>
          <ErrorList error={comment.error} title="Could not add the comment." />
          <button type="submit" disabled={comment.isPending}>
            {comment.isPending ? 'Adding…' : 'Add comment'}
          </button>
        </form>
      ) : null}
    </div>
  );
}
