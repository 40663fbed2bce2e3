import { useId, useRef, useState, type ChangeEvent } from 'react';
import { ComplaintSetImport, describeImportIssues, type ComplaintSetImportResponse } from '@inbound/contract';
import '../agencies/catalog.css';
import { exportComplaintSet, useAdminComplaintSets, useImportComplaintSet } from './queries';

/** "Standard ALS/BLS 2026" version 3 → standard-als-bls-2026-v3.json */
export function exportFileName(name: string, version: number): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug || 'complaint-set'}-v${version}.json`;
}

function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * The problems of a chosen file, before anything is sent: not JSON, or the contract's
 * ComplaintSetImport check, each naming its entry exactly as the server would.
 */
export function checkImportFile(text: string): { file: ComplaintSetImport } | { problems: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problems: [`The file is not valid JSON: ${(error as Error).message}`] };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { problems: ['The file must be a complaint set: an object with "name" and "complaints".'] };
  }
  const parsed = ComplaintSetImport.safeParse(json);
  return parsed.success ? { file: parsed.data } : { problems: describeImportIssues(parsed.error.issues) };
}

/**
 * Complaint sets: each set's newest version (what crews starting a case get), exported as a JSON file,
 * and a file imported as a new set or the next version of the set of its name.
 */
export function ComplaintSetsPage() {
  const sets = useAdminComplaintSets();
  const importSet = useImportComplaintSet();
  const [problems, setProblems] = useState<string[]>([]);
  const [chosen, setChosen] = useState<{ fileName: string; file: ComplaintSetImport } | null>(null);
  const [imported, setImported] = useState<ComplaintSetImportResponse | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const replaces = chosen ? sets.data?.find((s) => s.name === chosen.file.name) : undefined;

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const picked = event.target.files?.[0];
    importSet.reset();
    setImported(null);
    setChosen(null);
    setProblems([]);
    if (!picked) return;
    const result = checkImportFile(await picked.text());
    if ('problems' in result) setProblems(result.problems);
    else setChosen({ fileName: picked.name, file: result.file });
  }

  function upload() {
    if (!chosen) return;
    importSet.mutate(chosen.file, {
      onSuccess: (answer) => {
        setImported(answer);
        setChosen(null);
        if (input.current) input.current.value = '';
      },
    });
  }

  async function exportSet(name: string) {
    setExportError(null);
    try {
      const file = await exportComplaintSet(name);
      download(exportFileName(file.name, file.version), `${JSON.stringify(file, null, 2)}\n`);
    } catch (error) {
      setExportError((error as Error).message);
    }
  }

  return (
    <div className="admin-page">
      <div className="admin-page-head">
        <h2>Complaint sets</h2>
      </div>
      {sets.isPending && <p role="status">Loading complaint sets…</p>}
      {sets.isError && (
        <div role="alert" className="banner banner-error">
          {sets.error.message}
        </div>
      )}
      {sets.data && (
        <table className="admin-table">
          <caption className="visually-hidden">Complaint sets</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Version</th>
              <th scope="col">Complaints</th>
              <th scope="col">Used by</th>
              <th scope="col">Published</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sets.data.map((s) => (
              <tr key={s.id}>
                <td className="admin-strong">{s.name}</td>
                <td>{s.version}</td>
                <td>{s.complaintCount}</td>
                <td>
                  {s.agencies.length === 0 ? (
                    <span className="muted">No agency</span>
                  ) : (
                    s.agencies.map((a) => a.name).join(', ')
                  )}
                </td>
                <td>{new Date(s.createdAt).toLocaleDateString()}</td>
                <td className="admin-row-actions">
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Export ${s.name}`}
                    onClick={() => void exportSet(s.name)}
                  >
                    Export JSON
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {exportError && (
        <div role="alert" className="banner banner-error">
          {exportError}
        </div>
      )}

      <section className="panel admin-editor" aria-labelledby={`${id}-import`}>
        <h2 id={`${id}-import`}>Import a complaint set</h2>
        <p className="muted">
          A JSON file as Export writes it: <code>{'{ "name": …, "complaints": [ … ] }'}</code>. A set with the same name
          gets a new version, which crews get for the cases they start from then on; cases already open keep theirs.
        </p>
        <div className="field">
          <label htmlFor={`${id}-file`}>Complaint set file (.json)</label>
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            accept="application/json,.json"
            onChange={(e) => void choose(e)}
            aria-invalid={problems.length > 0 ? true : undefined}
            aria-describedby={problems.length > 0 ? `${id}-problems` : undefined}
          />
        </div>
        {problems.length > 0 && (
          <div role="alert" className="banner banner-error" id={`${id}-problems`}>
            <p className="admin-strong">The file cannot be imported:</p>
            <ul className="admin-problems">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        )}
        {chosen && (
          <div className="admin-confirm-box" role="group" aria-label="Confirm the import">
            <p>
              <strong>{chosen.file.name}</strong>: {chosen.file.complaints.length} complaints from {chosen.fileName}.{' '}
              {replaces
                ? `This replaces version ${replaces.version} for ${replaces.agencies.length} agenc${replaces.agencies.length === 1 ? 'y' : 'ies'}.`
                : 'This is a new set; assign it to agencies on the Agencies page.'}
            </p>
            <div className="admin-actions">
              <button
                type="button"
                className={`button ${replaces ? 'button-danger' : 'button-primary'}`}
                disabled={importSet.isPending}
                onClick={upload}
              >
                {importSet.isPending ? 'Importing…' : replaces ? `Replace ${replaces.name}` : 'Import'}
              </button>
              <button
                type="button"
                className="button"
                onClick={() => {
                  setChosen(null);
                  if (input.current) input.current.value = '';
                }}
              >
                Cancel
              </button>
            </div>
          </div>
        )}
        {importSet.isError && (
          <div role="alert" className="banner banner-error">
            {importSet.error.message}
          </div>
        )}
        {imported && (
          <p role="status" className="banner banner-ok">
            Imported {imported.name} version {imported.version} ({imported.complaintCount} complaints).
          </p>
        )}
      </section>
    </div>
  );
}
