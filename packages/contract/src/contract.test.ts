import { describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  buildPath,
  createMessages,
  messages,
  routes,
  SignInBody,
  tokenFromAuthorization,
  AGE_MAX_BY_PERIOD,
  AGE_PERIOD,
  IDEMPOTENCY_KEY_PATTERN,
  PatchCaseBody,
  placeholderIdFromQuery,
  CASE_CHANNEL_EVENTS,
  CASE_EVENTS,
  CaseEvent,
  parseChannelMessage,
  parseMessageOf,
  PostChatMessageBody,
  RecordedCaseEvent,
  TagValuesBody,
} from './index.js';

describe('messages', () => {
  it('put our brand where the spec names the vendor', () => {
    expect(messages.badGateway).toBe('Inbound servers are down, or being upgraded.');
    expect(createMessages('Acme').serviceUnavailable).toBe(
      'The Acme servers are up, but overloaded with requests. Try again later.',
    );
    expect(Object.values(messages).filter((m) => typeof m === 'string' && m.includes('TigerConnect'))).toEqual([]);
  });

  it('keep the spec texts word for word, double space included', () => {
    expect(messages.fillCurrentPassword).toBe('Please fill in Current  Password');
    expect(messages.noResponse).toBe(
      'No internet connection.\n Please check that your internet connection is working and try again.',
    );
    expect(messages.patientInfoRequired(['First Name', 'DOB'])).toBe(
      'Please fill in the following fields in Patient Info to complete this case: First Name, DOB.',
    );
  });
});

describe('authorization header', () => {
  it('round-trips the spec scheme', () => {
    expect(tokenFromAuthorization(authorizationHeader('abc.def.ghi'))).toBe('abc.def.ghi');
  });

  it.each([undefined, '', 'Bearer abc', 'JWT', 'JWT a b', 'abc'])('rejects %j', (header) => {
    expect(tokenFromAuthorization(header)).toBeNull();
  });
});

describe('routes', () => {
  it('fill path parameters, encoded', () => {
    expect(buildPath(routes.team.path, { id: 'a/b' })).toBe('/v4/emsAgencies/a%2Fb');
    expect(() => buildPath(routes.trucks.path)).toThrow('missing path parameter id');
  });

  it('name the missing field of a sign-in', () => {
    const result = SignInBody.safeParse({ username: '', password: 'x', twiageClient: 'ems', platform: 'web' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('username is required');
  });
});

describe('age limits', () => {
  it('follow the spec period codes', () => {
    expect(AGE_MAX_BY_PERIOD[AGE_PERIOD.years]).toBe(120);
    expect(AGE_MAX_BY_PERIOD[AGE_PERIOD.months]).toBe(24);
    expect(AGE_MAX_BY_PERIOD[AGE_PERIOD.weeks]).toBe(24);
  });
});

describe('case calls', () => {
  it('find the placeholder id as a bare query key or as placeholderId', () => {
    expect(placeholderIdFromQuery({ 'placeholder-1732200000000': '' })).toBe('placeholder-1732200000000');
    expect(placeholderIdFromQuery({ placeholderId: 'placeholder-1' })).toBe('placeholder-1');
    expect(placeholderIdFromQuery({})).toBeNull();
  });

  it('take exactly one change per PATCH, age with its period', () => {
    expect(PatchCaseBody.safeParse({ gender: 'F' }).success).toBe(true);
    expect(PatchCaseBody.safeParse({ gender: null }).success).toBe(true);
    expect(PatchCaseBody.safeParse({ age: 24, agePeriod: AGE_PERIOD.weeks }).success).toBe(true);
    expect(PatchCaseBody.safeParse({ age: 25, agePeriod: AGE_PERIOD.weeks }).success).toBe(false);
    expect(PatchCaseBody.safeParse({ gender: 'F', complaint: 'stroke' }).success).toBe(false);
    expect(PatchCaseBody.safeParse({ arrivedAt: '2026-11-21T07:40:00-05:00' }).success).toBe(true);
  });

  it('accept UUIDs as idempotency keys', () => {
    expect(IDEMPOTENCY_KEY_PATTERN.test('0b8e6f1e-7d3a-4c5e-9f1a-2b3c4d5e6f70')).toBe(true);
    expect(IDEMPOTENCY_KEY_PATTERN.test('short')).toBe(false);
  });
});

describe('case events and real-time messages', () => {
  const meta = {
    id: 'e1',
    caseId: 'c1',
    seq: 3,
    createdAt: '2026-11-25T10:00:00.000Z',
    clientCreatedAt: null,
    actorUserId: 'u1',
  };

  it('types each case event by its kind and refuses a payload of another kind', () => {
    const ack = RecordedCaseEvent.parse({
      ...meta,
      type: 'acknowledged',
      payload: { hospitalId: 'h1', byName: 'Ann', hospitalName: 'Mercy' },
    });
    expect(ack.type === 'acknowledged' && ack.payload.byName).toBe('Ann');
    // Every acknowledgement names its hospital (older rows got it from a migration).
    expect(CaseEvent.safeParse({ type: 'acknowledged', payload: { hospitalId: 'h1', byName: 'Ann' } }).success).toBe(
      false,
    );
    expect(CaseEvent.safeParse({ type: 'age', payload: { gender: 'F' } }).success).toBe(false);
    expect(CaseEvent.safeParse({ type: 'tag', payload: { tagId: 't', action: 'added' } }).success).toBe(false);
    expect(CASE_EVENTS.acknowledged).toBe('acknowledged');
  });

  it('parses a channel message by the channel kind, and answers null for what that kind does not carry', () => {
    const event = { ...meta, type: 'gender', payload: { gender: 'M' } };
    const message = parseChannelMessage('case', {
      type: CASE_CHANNEL_EVENTS.caseUpdated,
      data: { caseId: 'c1', event },
    });
    expect(message?.type === 'case.updated' && message.data.event.type).toBe('gender');
    expect(parseChannelMessage('case', { type: 'case.updated', data: { caseId: 'c1' } })).toBeNull();
    expect(parseChannelMessage('hospital', { type: 'case.updated', data: { caseId: 'c1', event } })).toBeNull();
    expect(parseMessageOf('hospital:h1', { type: 'dispatch.updated', data: { dispatchId: 'd1' } })).not.toBeNull();
  });
});

describe('wire forms the spec leaves open', () => {
  it('normalises destinationHospital { id }, numeric tag values and epoch-ms chat timestamps', () => {
    expect(PatchCaseBody.parse({ destinationHospital: { id: 'h1' } })).toEqual({ destinationHospital: 'h1' });
    expect(
      TagValuesBody.parse({ fields: [{ key: 'k', name: 'n', type: 'number', value: 7.5 }] }).fields[0]?.value,
    ).toBe('7.5');
    const chat = PostChatMessageBody.parse({
      clientCreatedAt: '2026-11-25T10:00:00.000Z',
      deviceId: 'd',
      message: 'hi',
      timestamp: Date.parse('2026-11-25T10:00:00.000Z'),
      source: 'web_ems',
      senderOrganization: 'x',
    });
    expect(chat.timestamp).toBe('2026-11-25T10:00:00.000Z');
  });
});
