import type { Db } from '@sess/db';
import { askRespondents, formAnswers, formRevisions, formSessions } from '@sess/db';
import type { Surface } from '@sess/surface';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AnswerRow, RespondentRow, RevisionRow, SessionRow } from './session-row.ts';

/*
 * The hot reads, each one indexed query that returns the session, its current revision and that
 * revision's answer together. Built and prepared once per runtime. Only the reads behind a page
 * bring the Surface itself (a jsonb of up to 64 KiB, parsed on every read); an agent's reads, a
 * parked wait's among them, need only its hash.
 */

/** The columns of an answer as every read returns them (`AnswerRow`). */
export const answerColumns = {
  id: formAnswers.id,
  revision: formAnswers.revision,
  respondentId: formAnswers.respondentId,
  actionId: formAnswers.actionId,
  values: formAnswers.values,
  answerSha256: formAnswers.answerSha256,
  receipt: formAnswers.receipt,
  answeredAt: formAnswers.answeredAt,
  via: formAnswers.via,
  viaPrincipalId: formAnswers.viaPrincipalId,
  assurance: formAnswers.assurance,
  answeredByUserId: formAnswers.answeredByUserId,
};
const revisionColumns = {
  revision: formRevisions.revision,
  surface: formRevisions.surface,
  surfaceSha256: formRevisions.surfaceSha256,
};
const revisionHashColumns = {
  revision: formRevisions.revision,
  surfaceSha256: formRevisions.surfaceSha256,
};
const respondentColumns = {
  id: askRespondents.id,
  name: askRespondents.name,
  startedAt: askRespondents.startedAt,
  expiresAt: askRespondents.expiresAt,
  answeredAt: askRespondents.answeredAt,
  userId: askRespondents.userId,
};

const currentRevision = and(
  eq(formRevisions.sessionId, formSessions.id),
  eq(formRevisions.revision, formSessions.currentRevision),
);
const currentAnswer = and(
  eq(formAnswers.sessionId, formSessions.id),
  eq(formAnswers.revision, formSessions.currentRevision),
  isNull(formAnswers.respondentId),
);

/** A revision as an agent's read needs it: which one, and the hash of its Surface. */
export type RevisionHash = Pick<RevisionRow, 'revision' | 'surfaceSha256'>;

/**
 * A session with its current revision and that revision's answer (interactions only have one).
 * The revision carries its Surface for a page; an agent's read takes `SessionSnapshot<RevisionHash>`.
 */
export interface SessionSnapshot<Revision = RevisionRow> {
  session: SessionRow;
  revision: Revision;
  answer: AnswerRow | null;
}

/** A respondent page: the respondent, its Ask and the Ask's Surface, and the respondent's answer. */
export interface RespondentSnapshot extends SessionSnapshot {
  respondent: RespondentRow;
}

type Raw = {
  s: typeof formSessions.$inferSelect;
  r: { revision: number; surface: unknown; surfaceSha256: string };
  a: { [K in keyof typeof answerColumns]: unknown } | null;
};

/** The answer columns of a row, or null when the left join found none. */
const answerOf = (a: Raw['a']): AnswerRow | null => (a ? (a as unknown as AnswerRow) : null);

function toSnapshot(raw: Raw): SessionSnapshot {
  return {
    session: raw.s as SessionRow,
    revision: { revision: raw.r.revision, surface: raw.r.surface as Surface, surfaceSha256: raw.r.surfaceSha256 },
    answer: answerOf(raw.a),
  };
}

/** Prepared statements bound to one database handle. */
export function prepareQueries(db: Db) {
  const byToken = db
    .select({ s: formSessions, r: revisionColumns, a: answerColumns })
    .from(formSessions)
    .innerJoin(formRevisions, currentRevision)
    .leftJoin(formAnswers, currentAnswer)
    .where(eq(formSessions.linkTokenHash, sql.placeholder('hash')))
    .prepare('forms_session_by_token');

  const byId = db
    .select({ s: formSessions, r: revisionHashColumns, a: answerColumns })
    .from(formSessions)
    .innerJoin(formRevisions, currentRevision)
    .leftJoin(formAnswers, currentAnswer)
    .where(and(eq(formSessions.id, sql.placeholder('id')), eq(formSessions.workspaceId, sql.placeholder('workspaceId'))))
    .prepare('forms_session_by_id');

  const respondentByToken = db
    .select({ p: respondentColumns, s: formSessions, r: revisionColumns, a: answerColumns })
    .from(askRespondents)
    .innerJoin(formSessions, eq(formSessions.id, askRespondents.sessionId))
    .innerJoin(formRevisions, and(eq(formRevisions.sessionId, formSessions.id), eq(formRevisions.revision, 1)))
    .leftJoin(formAnswers, eq(formAnswers.respondentId, askRespondents.id))
    .where(eq(askRespondents.tokenHash, sql.placeholder('hash')))
    .prepare('forms_respondent_by_token');

  return {
    /** The session behind a link token hash (interaction or Ask). */
    async sessionByTokenHash(hash: string): Promise<SessionSnapshot | null> {
      const [raw] = await byToken.execute({ hash });
      return raw ? toSnapshot(raw as Raw) : null;
    },
    /** A session of one workspace by id; another workspace's session is simply not found. */
    async sessionById(workspaceId: string, id: string): Promise<SessionSnapshot<RevisionHash> | null> {
      const [raw] = await byId.execute({ id, workspaceId });
      return raw ? { session: raw.s as SessionRow, revision: raw.r, answer: answerOf(raw.a) } : null;
    },
    /** The respondent page behind a respondent token hash. */
    async respondentByTokenHash(hash: string): Promise<RespondentSnapshot | null> {
      const [raw] = await respondentByToken.execute({ hash });
      if (!raw) return null;
      return { ...toSnapshot(raw as Raw), respondent: raw.p as RespondentRow };
    },
  };
}

export type Queries = ReturnType<typeof prepareQueries>;

/** The answer of one (older) revision of an interaction and its Surface's hash, for reads that ask for it. */
export async function readRevisionAnswer(
  db: Db,
  sessionId: string,
  revision: number,
): Promise<{ revision: RevisionHash; answer: AnswerRow | null } | null> {
  const [raw] = await db
    .select({ r: revisionHashColumns, a: answerColumns })
    .from(formRevisions)
    .leftJoin(
      formAnswers,
      and(
        eq(formAnswers.sessionId, formRevisions.sessionId),
        eq(formAnswers.revision, formRevisions.revision),
        isNull(formAnswers.respondentId),
      ),
    )
    .where(and(eq(formRevisions.sessionId, sessionId), eq(formRevisions.revision, revision)));
  if (!raw) return null;
  return { revision: raw.r, answer: answerOf(raw.a) };
}
