import type { Kysely } from 'kysely';
import type { Config } from './config';
import type { Db } from './db/database';
import { openReader } from './db/reader';
import type { Database } from './db/schema';
import { createIdempotencyRepository } from './repositories/idempotency.repository';
import { createImportDraftsRepository } from './repositories/import-drafts.repository';
import { createLeadAssignmentsRepository } from './repositories/lead-assignments.repository';
import { createLeadExportRepository } from './repositories/lead-export.repository';
import { createLeadFillsRepository } from './repositories/lead-fills.repository';
import { createLeadImportsRepository } from './repositories/lead-imports.repository';
import { createLeadStatusRepository } from './repositories/lead-status.repository';
import { createLeadTimelineRepository } from './repositories/lead-timeline.repository';
import { createLeadsRepository } from './repositories/leads.repository';
import { createLeadsAdminRepository } from './repositories/leads-admin.repository';
import { createManagerRepository } from './repositories/manager.repository';
import { createOptionsRepository } from './repositories/options.repository';
import { createPasswordResetsRepository } from './repositories/password-resets.repository';
import { createRateLimitsRepository } from './repositories/rate-limits.repository';
import { createRemindersRepository } from './repositories/reminders.repository';
import { createStaffRepository } from './repositories/staff.repository';
import { createSyncChangesRepository } from './repositories/sync-changes.repository';
import { createUsersRepository } from './repositories/users.repository';
import { createAadhaarVault } from './services/aadhaar-vault';
import { createAnswerCache } from './services/answer-cache';
import { createAssignmentService } from './services/assignment.service';
import { createAuthService } from './services/auth.service';
import { createFollowUps } from './services/follow-ups';
import { createLeadExportService } from './services/lead-export/lead-export.service';
import { createLeadImportService } from './services/lead-import/import.service';
import { createParseWorkers } from './services/lead-import/parse-workers';
import { createImportPreviewService } from './services/lead-import/preview.service';
import { createLeadStatusService } from './services/lead-status.service';
import { createLeadTimelineService } from './services/lead-timeline.service';
import { createLeadsService } from './services/leads.service';
import { createLeadsListService } from './services/leads-list.service';
import { createMailer } from './services/mailer';
import { createManagerService } from './services/manager.service';
import { createPasswordResetService } from './services/password-reset.service';
import { createRateLimiter } from './services/rate-limiter';
import { createRegistrationService } from './services/registration.service';
import { createRemindersService } from './services/reminders.service';
import { loadSecrets } from './services/secrets';
import { createSessionService } from './services/sessions.service';
import { createStaffService } from './services/staff.service';
import { createStatsService } from './services/stats.service';
import { createSyncChangesService } from './services/sync/sync-changes.service';
import { createTokenService } from './services/tokens';

/** Repositories and services, built once per app and shared by the routes through `app.deps`. */
export function createDeps(config: Config, database: Db) {
  const db: Kysely<Database> = database.db;
  const secrets = loadSecrets(config);
  const users = createUsersRepository(db);
  const options = createOptionsRepository(db);
  const rateLimits = createRateLimitsRepository(db);
  const tokens = createTokenService(secrets.jwtSecret, config.jwtTtlSeconds);
  const vault = createAadhaarVault(secrets);
  const limiter = createRateLimiter(rateLimits, config.login.windowSeconds);
  const leadStatusService = createLeadStatusService({
    db,
    leadStatus: createLeadStatusRepository(db),
    options,
  });
  const mailer = createMailer(config);
  const followUps = createFollowUps(config, { db, dialect: database.dialect, mailer });
  // Admin dashboard and import (issue 3). Dashboard reads go through `dashboardReader`: on
  // SQLite a second, read-only connection, so a long import transaction does not stall them.
  const leadsRepository = createLeadsRepository(db, database.sqlite);
  const leadImports = createLeadImportsRepository(db);
  const leadFills = createLeadFillsRepository(db);
  const dashboardReader = openReader(config.database, db);
  const leadsReader = createLeadsRepository(dashboardReader.db);
  const usersReader = createUsersRepository(dashboardReader.db);
  const stats = createStatsService({ leadsReader, usersReader });
  const assignment = createAssignmentService({
    db,
    assignments: createLeadAssignmentsRepository(db),
    users,
    onChange: stats.invalidate,
  });
  const staffRepository = createStaffRepository(db);
  const importWorkers = createParseWorkers({
    memoryMb: Math.max(512, Math.ceil(config.maxUploadRows / 100_000) * 512),
    timeoutMs: 120_000,
  });
  const importLimits = {
    maxRows: config.maxUploadRows,
    maxEntries: 1000,
    maxUnpackedBytes: Math.max(200 * 1024 * 1024, 10 * config.maxUploadBytes),
  };
  return {
    config,
    db,
    dialect: database.dialect,
    users,
    options,
    tokens,
    vault,
    limiter,
    auth: createAuthService({
      users,
      tokens,
      limiter,
      limits: config.login,
      onSignIn: (id, at) => staffRepository.touchSignIn(id, at.toISOString()),
    }),
    // Manager figures read through the dashboard reader, as the admin stats do.
    manager: createManagerService({ manager: createManagerRepository(dashboardReader.db) }),
    staff: createStaffService({ db, staff: staffRepository, users, assignment, onChange: stats.invalidate }),
    sessions: createSessionService({
      tokens,
      users: usersReader,
      version: dashboardReader.version,
      versionNow: dashboardReader.versionNow,
    }),
    registration: createRegistrationService({ db, users, vault }),
    idempotency: createIdempotencyRepository(db),
    leadStatusService,
    remindersService: createRemindersService({
      reminders: createRemindersRepository(db),
      ownLead: leadStatusService.ownLead,
    }),
    mailer,
    followUps,
    pushSubscriptions: followUps.pushSubscriptions,
    passwordReset: createPasswordResetService({
      db,
      users,
      resets: createPasswordResetsRepository(db),
      mailer,
      limiter,
      publicUrl: config.publicUrl,
    }),
    leadsList: createLeadsListService({ leads: leadsRepository, edits: createLeadsAdminRepository(db) }),
    leadsRepository,
    leadTimeline: createLeadTimelineService({
      timeline: createLeadTimelineRepository(db),
      leads: leadsRepository,
    }),
    leadImports,
    // The export reads through the dashboard reader too: a long download never holds the writer.
    leadExport: createLeadExportService({
      leads: leadsReader,
      extras: createLeadExportRepository(dashboardReader.db),
      zone: { timeZone: config.agencyTimeZone },
    }),
    dashboardReader,
    listAnswers: createAnswerCache(),
    assignment,
    importWorkers,
    leadsService: createLeadsService({
      leads: leadsRepository,
      leadsReader,
      users,
      onChange: stats.invalidate,
    }),
    stats,
    syncChanges: createSyncChangesService({
      changes: createSyncChangesRepository(db, database.dialect),
      leads: leadsRepository,
      options,
    }),
    leadImport: createLeadImportService({
      db,
      bulkWrite: database.bulkWrite,
      leads: leadsRepository,
      imports: leadImports,
      fills: leadFills,
      assignment,
      workers: importWorkers,
      onImported: stats.invalidate,
      limits: importLimits,
    }),
    importDrafts: createImportDraftsRepository(db),
    importPreview: createImportPreviewService({
      workers: importWorkers,
      leads: leadsRepository,
      fills: leadFills,
      limits: importLimits,
    }),
  };
}
export type Deps = ReturnType<typeof createDeps>;

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}
