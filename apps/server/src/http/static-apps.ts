/**
 * Serves the built web apps from the same origin as the API (no CORS, one URL to hand a crew): the
 * crew app at `/`, the hospital console at `/hospital/`. Both use history routing, so a deep link such
 * as /team-selection gets the app's index.html; /start gets the crew build's start.html when there is one
 * (the same page with Start's static shell instead of the login screen's: a signed-in crew's first screen,
 * decisions 0039 and 0043). A missing build is a warning, not a failure: the API and its tests run without
 * the front ends built.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiPath } from '@inbound/contract';
import { notFound } from '../errors.js';

const HOSPITAL_PREFIX = '/hospital';

// Vite puts content-hashed files under assets/: a new build has new names, so they can be cached for good.
// Everything else (index.html, the service worker, the manifest) must be revalidated or users keep an old app.
function cacheHeaders(reply: FastifyReply, filePath: string) {
  const hashed = filePath.split(path.sep).includes('assets');
  reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
}

export async function registerStaticApps(
  app: FastifyInstance,
  dists: { crewDist: string; hospitalDist: string },
): Promise<void> {
  const crewIndex = path.join(dists.crewDist, 'index.html');
  const crewStart = path.join(dists.crewDist, 'start.html');
  const hospitalIndex = path.join(dists.hospitalDist, 'index.html');
  const hasCrew = existsSync(crewIndex);
  const hasHospital = existsSync(hospitalIndex);
  const hasCrewStart = existsSync(crewStart);

  if (hasCrew) {
    await app.register(fastifyStatic, {
      root: dists.crewDist,
      prefix: '/',
      // The build's .br / .gz copies (vite.config.ts), chosen by Accept-Encoding, with Vary.
      preCompressed: true,
      cacheControl: false,
      setHeaders: cacheHeaders,
    });
  } else {
    app.log.warn({ dist: dists.crewDist }, 'crew app not built: / serves nothing (run npm run build)');
  }

  if (hasHospital) {
    await app.register(fastifyStatic, {
      root: dists.hospitalDist,
      prefix: `${HOSPITAL_PREFIX}/`,
      decorateReply: false,
      redirect: true,
      preCompressed: true,
      cacheControl: false,
      setHeaders: cacheHeaders,
    });
  } else {
    app.log.warn(
      { dist: dists.hospitalDist },
      'hospital console not built: /hospital/ serves nothing (run npm run build)',
    );
  }

  const sendIndex = async (reply: FastifyReply, file: string) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(await readFile(file));

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '';
    // The console's entry answers any client (link checkers, curl); deep links only browsers asking for HTML.
    const isConsoleEntry = pathname === HOSPITAL_PREFIX || pathname === `${HOSPITAL_PREFIX}/`;
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(request.url) &&
      (isConsoleEntry || (request.headers.accept ?? '').includes('text/html'));
    if (wantsPage) {
      const inHospital = pathname === HOSPITAL_PREFIX || pathname.startsWith(`${HOSPITAL_PREFIX}/`);
      if (inHospital && hasHospital) return sendIndex(reply, hospitalIndex);
      if (!inHospital && hasCrew)
        return sendIndex(reply, pathname === '/start' && hasCrewStart ? crewStart : crewIndex);
    }
    throw notFound('Resource');
  });
}
