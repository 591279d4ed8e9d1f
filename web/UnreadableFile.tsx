export function UnreadableFile({ file, errors }: { file: string; errors: readonly string[] }) {
  return (
    <>
      <h2>{file}</h2>
      <p className="status status-error">This file could not be read:</p>
      <ul className="problems" aria-label={`Errors in ${file}`}>
        {errors.map((error, index) => (
          <li key={index}>{error}</li>
        ))}
      </ul>
    </>
  );
}
