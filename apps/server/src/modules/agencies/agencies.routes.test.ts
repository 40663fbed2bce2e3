import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, routes, Team, TrucksResponse } from '@inbound/contract';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { IDS } from '../../seed/demo-data.js';

const teamPath = (id: string) => `${buildPath(routes.team.path, { id })}?fields=dynamicForms`;
const trucksPath = (id: string) => buildPath(routes.trucks.path, { id });

describe('agencies routes', () => {
  let t: TestApp;
  let medic1: string;
  let medic3: string;
  beforeAll(async () => {
    t = await createTestApp();
    medic1 = await t.signIn('medic1');
    medic3 = await t.signIn('medic3');
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    expectClientError(await t.get(teamPath(IDS.agencies.riverside)), 401);
    expectClientError(await t.get(trucksPath(IDS.agencies.riverside)), 401);
  });

  describe('GET /v4/emsAgencies/:id', () => {
    it('answers the team with hospitals, statuses, features, forms, monitors and EMT levels', async () => {
      const res = await t.get(teamPath(IDS.agencies.riverside), medic1);
      expect(res.statusCode).toBe(200);
      const team = Team.parse(res.json());
      expect(team.name).toBe('Riverside EMS');
      expect(team.hospitals.map((h) => h.name)).toEqual([
        'Riverside Regional Medical Center',
        "St. Mary's Hospital",
        'Mercy General Hospital',
        'Valley Community Hospital',
      ]);
      const regional = team.hospitals[0]!;
      const enabled = regional.supportedFeatures.filter((f) => f.enabled).map((f) => f.name);
      expect(enabled.sort()).toEqual([
        'caseRequiresPtNameAndDOB',
        'emsFeedback',
        'liveConsult',
        'showAiProtocolFeedback',
      ]);
      expect(regional.edPhoneNumbers.length).toBeGreaterThan(0);
      expect(team.hospitals.find((h) => h.name === 'Valley Community Hospital')!.nonTwiage).toBe(true);
      const mercy = team.hospitals.find((h) => h.name === 'Mercy General Hospital')!;
      expect(mercy.activeStatuses.map((s) => s.priority)).toEqual(['critical', 'urgent']);
      expect(team.complaintSet).toBe('Standard ALS/BLS 2026');
      expect(team.maxCaseLength).toBe(240);
      expect(team.monitors.map((m) => m.type)).toEqual(['lifepak', 'zoll']);
      expect(team.codeVital.emtLevels.map((l) => l.name)).toEqual(['EMR', 'EMT', 'AEMT', 'Paramedic']);
      expect(team.patientInfoForm?.title).toBe('Patient Info');
      expect(team.patientInfoForm?.fields.slice(0, 3)).toEqual([
        { key: 'firstName', name: 'First Name', type: 'text' },
        { key: 'lastName', name: 'Last Name', type: 'text' },
        { key: 'dateOfBirth', name: 'DOB', type: 'date' },
      ]);
      expect(team.dynamicForms.map((f) => f.type)).toEqual(['patientInfo']);
    });

    it('answers Lakeside with exactly one monitor and Hilltop (administered) with no hospitals', async () => {
      const lakeside = Team.parse((await t.get(teamPath(IDS.agencies.lakeside), medic1)).json());
      expect(lakeside.monitors).toHaveLength(1);
      expect(lakeside.hospitals.map((h) => h.name)).toEqual(['Lakeside Medical Center', "St. Mary's Hospital"]);
      const hilltop = Team.parse((await t.get(teamPath(IDS.agencies.hilltop), medic1)).json());
      expect(hilltop.hospitals).toEqual([]);
    });

    it("refuses another agency's team with 403 and an unknown id with 404", async () => {
      expectClientError(await t.get(teamPath(IDS.agencies.riverside), medic3), 403);
      expectClientError(await t.get(teamPath(IDS.agencies.hilltop), medic3), 403);
      expectClientError(await t.get(teamPath('agency-nowhere'), medic1), 404);
      expectClientError(await t.get(teamPath('x'.repeat(200)), medic1), 400);
      expectClientError(await t.get(teamPath('x'.repeat(1000)), medic1), 414);
    });

    it('lets organisation admins read any team; ED staff none', async () => {
      expect((await t.get(teamPath(IDS.agencies.lakeside), await t.signIn('admin'))).statusCode).toBe(200);
      expectClientError(await t.get(teamPath(IDS.agencies.riverside), await t.signIn('ed1')), 403);
    });
  });

  describe('GET /v4/emsAgencies/:id/trucks', () => {
    it('answers the trucks with ALS/BLS', async () => {
      const res = await t.get(trucksPath(IDS.agencies.riverside), medic1);
      expect(TrucksResponse.parse(res.json()).map((x) => [x.name, x.isALS])).toEqual([
        ['Medic 1', true],
        ['Medic 2', true],
        ['Ambulance 5', false],
      ]);
      const hilltop = TrucksResponse.parse((await t.get(trucksPath(IDS.agencies.hilltop), medic1)).json());
      expect(hilltop.map((x) => x.name)).toEqual(['Hilltop 1', 'Hilltop 2']);
    });

    it("refuses another agency's trucks with 403 and an unknown agency with 404", async () => {
      expectClientError(await t.get(trucksPath(IDS.agencies.riverside), medic3), 403);
      expectClientError(await t.get(trucksPath('agency-nowhere'), medic3), 404);
    });
  });
});
