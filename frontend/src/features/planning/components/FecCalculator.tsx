import { type FormEvent, useState } from 'react';

import { ErrorList } from '@/components/ErrorList';

import { useFec } from '../api/useFec';
import { fecQuery, fecText } from '../classData';

/** How one path with a given loss is coded for a target (GET /api/rail/fec/). */
export function FecCalculator() {
  const [loss, setLoss] = useState('0.003');
  const [target, setTarget] = useState('0.001');
  const [query, setQuery] = useState<{ loss: number; target: number } | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const answer = useFec(query);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = fecQuery(loss, target);
    setProblems(built.errors);
    if (built.query) setQuery(built.query);
  };

  return (
    <form className="sim-form" aria-label="FEC calculator" onSubmit={submit} noValidate>
      <div className="sim-form-row">
        <label>
          Path loss
          <input inputMode="decimal" value={loss} onChange={(event) => setLoss(event.target.value)} />
        </label>
        <label>
          Target loss
          <input inputMode="decimal" value={target} onChange={(event) => setTarget(event.target.value)} />
        </label>
        <button type="submit">Size FEC</button>
      </div>
      {problems.length > 0 ? (
        <div className="error-box" role="alert">
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <ErrorList error={answer.error} title="The server refused the question." />
      {answer.data && problems.length === 0 ? (
        <p className="fec-result" data-testid="fec-answer" aria-live="polite">
          {fecText(answer.data)}
        </p>
      ) : null}
    </form>
  );
}
