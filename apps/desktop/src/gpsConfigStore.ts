/**
 * `twiageConfig.json` (spec §9), in the host's data folder: the GPS config the installer sets on
 * /gpsSource. A missing file means the spec's defaults; a file that does not validate is reported and
 * the defaults are used, so a hand edit gone wrong never leaves the ambulance without positions.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GPS_CONFIG_DEFAULTS, GPS_CONFIG_FILE, GpsConfig } from '@inbound/contract';

export interface GpsConfigStore {
  readonly path: string;
  load(): Promise<{ config: GpsConfig; problem: string | null }>;
  save(config: GpsConfig): Promise<void>;
}

export function createGpsConfigStore(dataDir: string): GpsConfigStore {
  const path = join(dataDir, GPS_CONFIG_FILE);
  return {
    path,
    async load() {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { config: defaults(), problem: null };
        throw error;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return { config: defaults(), problem: `${GPS_CONFIG_FILE} is not JSON; using the defaults` };
      }
      const result = GpsConfig.safeParse(parsed);
      if (result.success) return { config: result.data, problem: null };
      const fields = result.error.issues.map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`);
      return {
        config: defaults(),
        problem: `${GPS_CONFIG_FILE} is not valid (${fields.join('; ')}); using the defaults`,
      };
    },
    async save(config) {
      // Write then rename: a power cut mid-write leaves the old file, never half a file.
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`);
      await rename(temporary, path);
    },
  };
}

function defaults(): GpsConfig {
  return GpsConfig.parse(GPS_CONFIG_DEFAULTS);
}
