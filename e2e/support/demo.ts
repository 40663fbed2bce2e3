/** The seeded demo data the tests rely on (docs/seed-data.md). Every password is `demo-` + username. */
export const demoPassword = (username: string) => `demo-${username}`;

export const users = {
  medic1: { username: 'medic1', displayName: 'Jordan Reyes' },
  medic2: { username: 'medic2', displayName: 'Sam Patel' },
  medic3: { username: 'medic3', displayName: 'Casey Nguyen' },
  ed1: { username: 'ed1', displayName: 'Taylor Brooks' },
  admin: { username: 'admin', displayName: 'Morgan Lee' },
} as const;

export const teams = {
  riverside: 'Riverside EMS',
  lakeside: 'Lakeside Fire Rescue',
  hilltop: 'Hilltop Volunteer Ambulance',
} as const;

export const trucks = {
  riverside: ['Medic 1', 'Medic 2', 'Ambulance 5'],
} as const;

export const hospitals = {
  riversideRegional: 'Riverside Regional Medical Center',
} as const;
