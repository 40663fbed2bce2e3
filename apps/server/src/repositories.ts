/**
 * Every repository of the server, each built once on the app's database (app.ts passes them to the
 * services). A new module adds its repository here, in the same style: one line.
 */
import type { Clock } from './clock.js';
import type { Database } from './db/database.js';
import { createGroupCommit } from './db/group-commit.js';
import { transactional } from './db/transactional.js';
import { createAdminAgenciesRepository } from './modules/admin/agencies.repository.js';
import { createAdminComplaintSetsRepository } from './modules/admin/complaint-sets.repository.js';
import { createAdminHospitalsRepository } from './modules/admin/hospitals.repository.js';
import { createAdminTrucksRepository } from './modules/admin/trucks.repository.js';
import { createAgenciesRepository } from './modules/agencies/agencies.repository.js';
import { createActivationRepository } from './modules/activation/activation.repository.js';
import { createChargeNurseRepository } from './modules/charge-nurse/charge-nurse.repository.js';
import { createHandoffWatchRepository } from './modules/handoff-watch/handoff-watch.repository.js';
import { createArrivalRepository } from './modules/arrival/arrival.repository.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { createBoardRepository } from './modules/board/board.repository.js';
import { createBroadcastsRepository } from './modules/broadcasts/broadcasts.repository.js';
import { createCasesRepository } from './modules/cases/cases.repository.js';
import { createCallsRepository } from './modules/calls/calls.repository.js';
import { createConsultsRepository } from './modules/consults/consults.repository.js';
import { createChatRepository } from './modules/chat/chat.repository.js';
import { createComplaintsRepository } from './modules/complaints/complaints.repository.js';
import { createDispatchRepository } from './modules/dispatch/dispatch.repository.js';
import { createFeedbackRepository } from './modules/feedback/feedback.repository.js';
import { createHospitalsRepository } from './modules/hospitals/hospitals.repository.js';
import { createInboundCaseRepository } from './modules/inbound-case/inbound-case.repository.js';
import { createMediaRepository } from './modules/media/media.repository.js';
import { createPushRepository } from './modules/push/push.repository.js';
import { createRealtimeRepository } from './modules/realtime/realtime.repository.js';
import { createTransfersRepository } from './modules/transfers/transfers.repository.js';
import { createUsersRepository } from './modules/users/users.repository.js';

export function createRepositories(database: Database, clock: Clock) {
  const { db } = database;
  // SQLite commits case writes in groups (one fsync for many); PostgreSQL groups WAL flushes itself.
  const caseTransactions = database.dialect === 'sqlite' ? createGroupCommit(db) : undefined;
  const cases = createCasesRepository(db, caseTransactions);
  return {
    auth: createAuthRepository(db),
    users: createUsersRepository(db),
    realtime: createRealtimeRepository(db, () => clock.now().toISOString()),
    hospitals: createHospitalsRepository(db),
    agencies: createAgenciesRepository(db),
    complaints: createComplaintsRepository(db),
    broadcasts: createBroadcastsRepository(db),
    feedback: createFeedbackRepository(db),
    cases,
    board: createBoardRepository(db),
    media: createMediaRepository(db),
    // A chat message takes the case's row lock (the cases module's) and its group commit.
    chat: createChatRepository(db, cases.lockForWrite, caseTransactions),
    push: createPushRepository(db),
    transfers: createTransfersRepository(db),
    dispatch: createDispatchRepository(db),
    arrival: createArrivalRepository(db),
    calls: createCallsRepository(db),
    consults: createConsultsRepository(db),
    activation: createActivationRepository(db),
    chargeNurse: createChargeNurseRepository(db),
    handoffWatch: createHandoffWatchRepository(db),
    inboundCase: createInboundCaseRepository(db),
    adminAgencies: transactional(db, createAdminAgenciesRepository),
    adminTrucks: transactional(db, createAdminTrucksRepository),
    adminHospitals: transactional(db, createAdminHospitalsRepository),
    adminComplaintSets: transactional(db, createAdminComplaintSetsRepository),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
