/** The problems the form found before sending anything, one line each. */
export function FormProblems({ problems }: { problems: string[] }) {
  if (problems.length === 0) return null;
  return (
    <div className="error-box" role="alert">
      <p className="error-title">Check the form.</p>
      <ul>
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}
