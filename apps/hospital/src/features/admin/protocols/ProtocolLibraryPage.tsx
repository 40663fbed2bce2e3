/**
 * An agency's protocol library (issue 13): the documents crews are answered from, and files uploaded
 * here — PDF (with a text layer), Markdown or HTML — read by the server in the background. Each upload
 * shows its progress in pages, then what it did (a new document, a new version, nothing: same file)
 * or why it failed. A file of the same name as a document becomes that document's new version; answers
 * already given keep opening the version they cited.
 */
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PROTOCOL_UPLOAD_MAX_BYTES,
  PROTOCOL_UPLOAD_TYPES,
  ProtocolUploadQuery,
  type ProtocolImport,
} from '@inbound/contract';
import { api } from '../../../lib/client';
import { useAdminAgencies } from '../agencies/queries';
import '../agencies/catalog.css';
import './protocols.css';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const ACTIVE = new Set<ProtocolImport['status']>(['queued', 'reading', 'indexing']);
const MAX_MB = PROTOCOL_UPLOAD_MAX_BYTES / 1024 / 1024;

function size(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The Content-Type for the file's name ('' when the name is not a protocol file). */
export function uploadType(fileName: string): string {
  const ending = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return ending in PROTOCOL_UPLOAD_TYPES ? PROTOCOL_UPLOAD_TYPES[ending as keyof typeof PROTOCOL_UPLOAD_TYPES] : '';
}

/** Why a chosen file cannot be sent, checked before a byte leaves the browser (the server checks again). */
export function checkProtocolFile(file: { name: string; size: number }): string | null {
  const name = ProtocolUploadQuery.shape.fileName.safeParse(file.name);
  if (!name.success) return name.error.issues[0]?.message ?? 'This file cannot be imported.';
  if (file.size === 0) return 'The file is empty.';
  if (file.size > PROTOCOL_UPLOAD_MAX_BYTES) return `The file is larger than ${MAX_MB} MB.`;
  return null;
}

/** What an upload is doing or did, in words. */
export function describeImport(job: ProtocolImport): string {
  switch (job.status) {
    case 'queued':
      return 'Waiting to be read…';
    case 'reading':
      return job.pagesTotal ? `Reading page ${job.pagesDone} of ${job.pagesTotal}…` : 'Reading…';
    case 'indexing':
      return 'Making it searchable…';
    case 'failed':
      return `Failed: ${job.message ?? 'the file could not be read.'}`;
    case 'done': {
      const pages = job.pagesTotal ? ` (${job.pagesTotal} ${job.pagesTotal === 1 ? 'page' : 'pages'})` : '';
      if (job.outcome === 'unchanged') return 'Unchanged: the same file as the current version.';
      if (job.outcome === 'updated') return `New version of ${job.title ?? job.fileName}${pages}.`;
      return `Added ${job.title ?? job.fileName}${pages}.`;
    }
  }
}

function ImportRow({ job }: { job: ProtocolImport }) {
  const active = ACTIVE.has(job.status);
  const percent = job.pagesTotal ? Math.round((100 * job.pagesDone) / job.pagesTotal) : 0;
  return (
    <li className={`protocol-import protocol-import-${job.status}`}>
      <div className="protocol-import-head">
        <strong>{job.fileName}</strong>
        <span className="muted">
          {size(job.byteSize)} · {when.format(new Date(job.createdAt))}
        </span>
      </div>
      {active && (
        <progress
          max={100}
          value={job.status === 'indexing' ? 100 : percent}
          aria-label={`Import of ${job.fileName}`}
        />
      )}
      <p role={job.status === 'failed' ? 'alert' : undefined}>{describeImport(job)}</p>
    </li>
  );
}

export function ProtocolLibraryPage() {
  const agencies = useAdminAgencies();
  const [agencyId, setAgencyId] = useState('');
  const chosen = agencyId || agencies.data?.[0]?.id || '';
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const queryClient = useQueryClient();
  const libraryKey = ['admin', 'protocol-library', chosen];

  const library = useQuery({
    queryKey: libraryKey,
    queryFn: () => api('protocolLibrary', { query: { agencyId: chosen } }),
    enabled: chosen !== '',
    // While a file is being read, its progress is asked for every second.
    refetchInterval: (query) => (query.state.data?.imports.some((job) => ACTIVE.has(job.status)) ? 1000 : false),
  });

  const upload = useMutation({
    mutationFn: (picked: File) =>
      api('protocolUpload', {
        query: { agencyId: chosen, fileName: picked.name },
        file: { data: picked, contentType: uploadType(picked.name) },
      }),
    onSuccess: () => {
      setFile(null);
      if (input.current) input.current.value = '';
      void queryClient.invalidateQueries({ queryKey: libraryKey });
    },
  });

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const picked = event.target.files?.[0] ?? null;
    upload.reset();
    setFile(picked);
    setProblem(picked ? checkProtocolFile(picked) : null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (file && !problem) upload.mutate(file);
  }

  const replaces = file ? library.data?.documents.find((doc) => doc.fileName === file.name) : undefined;
  const error = problem ?? (upload.isError ? upload.error.message : null);

  return (
    <div className="admin-page">
      <div className="admin-page-head">
        <h2>Protocol library</h2>
      </div>
      <div className="admin-toolbar">
        <div className="field">
          <label htmlFor={`${id}-agency`}>Agency</label>
          <select id={`${id}-agency`} value={chosen} onChange={(event) => setAgencyId(event.target.value)}>
            {agencies.data?.map((agency) => (
              <option key={agency.id} value={agency.id}>
                {agency.name}
              </option>
            ))}
          </select>
        </div>
      </div>

      <form className="panel admin-editor" aria-labelledby={`${id}-upload`} onSubmit={submit}>
        <h2 id={`${id}-upload`}>Upload a protocol file</h2>
        <p className="muted">
          PDF with a text layer (not a scan), Markdown or HTML, up to {MAX_MB} MB. Crews of this agency are answered
          from it once it is read. A file with the name of a document below becomes its new version; answers already
          given keep opening the page they cited.
        </p>
        <div className="field">
          <label htmlFor={`${id}-file`}>Protocol file (.pdf, .md, .html)</label>
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            accept=".pdf,application/pdf,.md,.markdown,text/markdown,.html,.htm,text/html"
            onChange={choose}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        {error && (
          <div role="alert" className="banner banner-error" id={`${id}-error`}>
            {error}
          </div>
        )}
        {file && !problem && replaces && (
          <p>
            This replaces <strong>{replaces.title}</strong> (version {replaces.versions}) for new questions.
          </p>
        )}
        <div className="admin-actions">
          <button type="submit" className="button button-primary" disabled={!file || !!problem || upload.isPending}>
            {upload.isPending ? 'Uploading…' : 'Upload'}
          </button>
        </div>
      </form>

      {library.isError && (
        <div role="alert" className="banner banner-error">
          {library.error.message}
        </div>
      )}
      {library.data && library.data.imports.length > 0 && (
        <section aria-labelledby={`${id}-imports`}>
          <h3 id={`${id}-imports`}>Recent uploads</h3>
          <ol className="protocol-imports" aria-live="polite">
            {library.data.imports.map((job) => (
              <ImportRow key={job.id} job={job} />
            ))}
          </ol>
        </section>
      )}

      <section aria-labelledby={`${id}-documents`}>
        <h3 id={`${id}-documents`}>Documents</h3>
        {library.isPending && chosen !== '' && <p role="status">Loading the library…</p>}
        {library.data?.documents.length === 0 && <p>No protocol documents yet: crews of this agency get no answers.</p>}
        {library.data && library.data.documents.length > 0 && (
          <table className="admin-table">
            <caption className="visually-hidden">Protocol documents</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">File</th>
                <th scope="col">Pages</th>
                <th scope="col">Version</th>
                <th scope="col">Imported</th>
              </tr>
            </thead>
            <tbody>
              {library.data.documents.map((doc) => (
                <tr key={doc.versionId}>
                  <td className="admin-strong">{doc.title}</td>
                  <td>
                    {doc.fileName} <span className="muted">({size(doc.byteSize)})</span>
                  </td>
                  <td>{doc.pages}</td>
                  <td>{doc.versions}</td>
                  <td>{when.format(new Date(doc.importedAt))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
