import { Link, Navigate, useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { useCurrentUser } from '@/features/auth';

import type { TodayAnswer } from '../api/types';
import { useAssignableUsers } from '../api/useAssignableUsers';
import { useToday } from '../api/useToday';
import { TodayVisitCard } from '../components/TodayVisitCard';
import { mayPlan } from '../roles';
import { planAgeText, progressText, staleWarning } from '../today';
import '../maintenance.css';

export function TodayPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const currentUser = useCurrentUser();
  const planner = mayPlan(currentUser.data);
  const chosen = searchParams.get('user') || undefined;
  const today = useToday(chosen);
  const users = useAssignableUsers(planner);
  const self = currentUser.data?.username;
  const whose = today.data?.user ?? chosen ?? self;

  return (
    <section aria-labelledby="today-heading" className="today-page">
      <h1 id="today-heading">{whose && whose !== self ? `${whose}’s day` : 'Today'}</h1>
      {planner ? (
        <label className="today-user">
          Technician
          <select
            value={chosen ?? self ?? ''}
            onChange={(event) =>
              setSearchParams(event.target.value && event.target.value !== self ? { user: event.target.value } : {})
            }
          >
            {self && !(users.data?.results ?? []).some((user) => user.username === self) ? (
              <option value={self}>{self} (you)</option>
            ) : null}
            {(users.data?.results ?? []).map((user) => (
              <option key={user.username} value={user.username}>
                {user.full_name ? `${user.username} (${user.full_name})` : user.username}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <ErrorList error={users.error} title="Could not load the technicians." />
      {today.isPending ? <Loading label="Loading the day…" /> : null}
      <ErrorList error={today.error} title="Could not load the day." />
      {today.data ? <Day answer={today.data} planner={planner} /> : null}
    </section>
  );
}

function Day({ answer, planner }: { answer: TodayAnswer; planner: boolean }) {
  const plan = answer.plan;
  const stale = plan ? staleWarning(plan) : null;
  if (plan === null || answer.visits.length === 0) {
    // A technician no plan names today lands on the ticket queue instead (issue #20): the
    // unresolved tickets, theirs among them, are the day's work.
    if (!planner) return <Navigate to="/tickets" replace />;
    return (
      <div className="panel" data-testid="today-empty">
        <p>{answer.detail}</p>
        {plan ? <p className="muted">{planAgeText(plan)}</p> : null}
        {planner ? (
          <p>
            <Link to="/work-orders/plan">Plan the day</Link>
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <>
      <p className="today-plan muted" data-testid="today-plan">
        {planAgeText(plan)} {progressText(answer.visits)}.
      </p>
      {stale ? (
        <div className="notice today-stale" role="status" data-testid="today-stale">
          <p>{stale.title}</p>
          {stale.reasons.length > 0 ? (
            <ul>
              {stale.reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <ol className="today-visits" data-testid="today-visits">
        {answer.visits.map((visit, index) => (
          <TodayVisitCard key={visit.work_order.id} visit={visit} index={index} />
        ))}
      </ol>
      <p className="muted" data-testid="today-detail">
        {answer.detail}
      </p>
    </>
  );
}
