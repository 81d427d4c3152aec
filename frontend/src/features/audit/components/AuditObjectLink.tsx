import { Link } from 'react-router';

import type { AuditEvent } from '../api/types';
import { objectPath } from '../auditText';

/** The changed object by name, linked to its page when it has one. */
export function AuditObjectLink({ event }: { event: AuditEvent }) {
  const path = objectPath(event);
  const name = event.object_repr || `#${event.object_id}`;
  return path ? <Link to={path}>{name}</Link> : <>{name}</>;
}
