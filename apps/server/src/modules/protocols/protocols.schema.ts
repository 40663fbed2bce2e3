/** The protocol assistant's tables (migration 20261125_1100_protocols), in the portable style of db/schema.ts. */
export interface ProtocolDocumentsTable {
  id: string;
  agency_id: string;
  source_name: string;
  current_version_id: string | null;
  created_at: string;
}

export interface ProtocolVersionsTable {
  id: string;
  document_id: string;
  agency_id: string;
  title: string;
  sha256: string;
  content_type: string;
  byte_size: number;
  page_count: number;
  imported_at: string;
  retired_at: string | null;
}

export interface ProtocolPassagesTable {
  id: string;
  version_id: string;
  agency_id: string;
  document_title: string;
  protocol_number: string | null;
  page: number;
  printed_page: string;
  text: string;
}

export interface ProtocolQuestionsTable {
  id: string;
  user_id: string;
  agency_id: string;
  case_id: string | null;
  chat_session_id: string;
  emt_level: string | null;
  question: string;
  answer_kind: string;
  summarized_result: string;
  detailed_result: string;
  citations: string;
  asked_at: string;
}

export interface ProtocolFeedbackTable {
  id: string;
  question_id: string;
  user_id: string;
  positive: number;
  text: string | null;
  created_at: string;
}

export interface ProtocolImportsTable {
  id: string;
  agency_id: string;
  source_name: string;
  byte_size: number;
  status: string;
  pages_done: number;
  pages_total: number | null;
  outcome: string | null;
  title: string | null;
  message: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface ProtocolTables {
  protocol_documents: ProtocolDocumentsTable;
  protocol_versions: ProtocolVersionsTable;
  protocol_passages: ProtocolPassagesTable;
  protocol_questions: ProtocolQuestionsTable;
  protocol_feedback: ProtocolFeedbackTable;
  protocol_imports: ProtocolImportsTable;
}
