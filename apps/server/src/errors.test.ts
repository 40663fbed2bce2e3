import { describe, expect, it } from 'vitest';
import { describeValidation } from './errors.js';

describe('describeValidation', () => {
  it('names the field first and says "is required" for an absent one', () => {
    expect(
      describeValidation('body', [
        { instancePath: '/username', message: 'Invalid input: expected string, received undefined' },
      ]),
    ).toBe('body.username: username is required');
    expect(describeValidation('querystring', [{ instancePath: '/name', message: 'name is required' }])).toBe(
      'query.name: name is required',
    );
    expect(describeValidation('body', [{ instancePath: '/clientInfo/client', message: 'Too small' }])).toBe(
      'body.clientInfo.client: Too small',
    );
    expect(
      describeValidation('body', [{ instancePath: '', message: 'Invalid input: expected object, received undefined' }]),
    ).toBe('body: Invalid input: expected object, received undefined');
  });
});
