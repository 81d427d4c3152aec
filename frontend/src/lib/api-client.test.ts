import { describe, expect, it } from 'vitest';

import { ApiError, buildUrl, errorMessages, parseErrorBody, readCookie } from './api-client';

describe('parseErrorBody', () => {
  it('prefixes DRF field errors with the field name', () => {
    expect(
      parseErrorBody({ username: ['This field is required.'], password: ['This field may not be blank.'] }),
    ).toEqual(['username: This field is required.', 'password: This field may not be blank.']);
  });

  it('shows non_field_errors and detail without a prefix', () => {
    expect(parseErrorBody({ non_field_errors: ['Unable to log in with provided credentials.'] })).toEqual([
      'Unable to log in with provided credentials.',
    ]);
    expect(parseErrorBody({ detail: 'You do not have permission to perform this action.' })).toEqual([
      'You do not have permission to perform this action.',
    ]);
  });

  it('locates fabric import errors by section, row and field', () => {
    const body = {
      errors: [
        { section: 'links', index: 3, field: 'b', message: "unknown switch 'x'" },
        { section: 'switches', index: 0, field: 'tier', message: 'tier out of range' },
        { section: 'fabric', field: 'name', message: 'already exists' },
      ],
    };
    expect(parseErrorBody(body)).toEqual([
      "links[3].b: unknown switch 'x'",
      'switches[0].tier: tier out of range',
      'fabric.name: already exists',
    ]);
  });

  it('walks nested serializer errors and bulk-create lists', () => {
    expect(parseErrorBody({ links: [{}, { a_port: ['port eth0 already used'] }] })).toEqual([
      'links[1].a_port: port eth0 already used',
    ]);
    expect(parseErrorBody([{ name: ['duplicate'] }, { tier: ['must be 0..2'] }])).toEqual([
      '[0].name: duplicate',
      '[1].tier: must be 0..2',
    ]);
    expect(parseErrorBody({ transceiver: { model: ['unknown model'] } })).toEqual(['transceiver.model: unknown model']);
  });

  it('keeps plain text but drops HTML error pages', () => {
    expect(parseErrorBody('Bad Gateway')).toEqual(['Bad Gateway']);
    expect(parseErrorBody('<!doctype html><h1>Server Error (500)</h1>')).toEqual([]);
    expect(parseErrorBody(undefined)).toEqual([]);
  });
});

describe('ApiError', () => {
  it('falls back to the status when the body said nothing readable', () => {
    const error = new ApiError(502, [], '<html></html>');
    expect(error.messages).toEqual(['Request failed with status 502']);
  });

  it('carries the parsed messages', () => {
    const error = new ApiError(400, parseErrorBody({ password: ['Wrong.'] }), null);
    expect(errorMessages(error)).toEqual(['password: Wrong.']);
    expect(error.status).toBe(400);
  });
});

describe('errorMessages', () => {
  it('explains network failures', () => {
    expect(errorMessages(new TypeError('Failed to fetch'))).toEqual(['Could not reach the server (Failed to fetch).']);
  });
});

describe('readCookie', () => {
  it('finds the csrftoken among other cookies', () => {
    expect(readCookie('csrftoken', 'sessionid=abc; csrftoken=tok%3D1; theme=dark')).toBe('tok=1');
    expect(readCookie('csrftoken', 'sessionid=abc')).toBeNull();
    expect(readCookie('csrftoken', '')).toBeNull();
  });
});

describe('buildUrl', () => {
  it('drops empty filters and repeats list parameters', () => {
    expect(buildUrl('/api/links/', { fabric: 3, admin_state: '', oper_state: undefined, limit: 50 })).toBe(
      '/api/links/?fabric=3&limit=50',
    );
    expect(buildUrl('/api/jobs/', { state: ['queued', 'running'] })).toBe('/api/jobs/?state=queued&state=running');
    expect(buildUrl('/api/fabrics/', {})).toBe('/api/fabrics/');
  });
});
