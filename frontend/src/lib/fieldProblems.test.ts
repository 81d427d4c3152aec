import { describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { fieldProblems } from './fieldProblems';

const FIELDS = ['name', 'payload_url'] as const;

describe('fieldProblems', () => {
  it('puts each message under its field, without the server key', () => {
    const error = new ApiError(400, ['payload_url: 127.0.0.1 (loopback): not allowed'], {
      payload_url: ['127.0.0.1 (loopback): not allowed'],
      name: ['Ensure this field has no more than 100 characters.'],
    });
    const { byField, general } = fieldProblems(error, FIELDS);
    expect(byField.payload_url).toEqual(['127.0.0.1 (loopback): not allowed']);
    expect(byField.name).toEqual(['Ensure this field has no more than 100 characters.']);
    expect(general).toEqual([]);
  });

  it('keeps problems of no field of the form, and errors that are not answers, in general', () => {
    const duplicate = new ApiError(400, [], { non_field_errors: ['The fields fabric, name must make a unique set.'] });
    expect(fieldProblems(duplicate, FIELDS).general).toEqual(['The fields fabric, name must make a unique set.']);
    expect(fieldProblems(new TypeError('Failed to fetch'), FIELDS).general).toEqual([
      'Could not reach the server (Failed to fetch).',
    ]);
    expect(fieldProblems(null, FIELDS)).toEqual({ byField: {}, general: [] });
  });
});

describe('fieldProblems with rows of {section, field, message}', () => {
  it('puts a job or upload row under its field without "params.fabric:" and keeps every row', () => {
    const error = new ApiError(400, [], {
      errors: [
        { section: 'params', field: 'fabric', message: 'demo-fb is not a k-ary fat tree: pod 0 has 8 edge' },
        { section: 'demand', field: 'name', message: 'must be a name of 1 to 100 characters' },
        { section: 'demand', field: 'name', message: 'already used' },
        { section: 'demand', field: 'file', line: 3, message: 'line 3: not a number' },
      ],
    });
    const { byField, general } = fieldProblems(error, ['fabric', 'name'] as const);
    expect(byField.fabric).toEqual(['demo-fb is not a k-ary fat tree: pod 0 has 8 edge']);
    expect(byField.name).toEqual(['must be a name of 1 to 100 characters', 'already used']);
    expect(general).toEqual(['demand.file: line 3: not a number']);
  });
});
