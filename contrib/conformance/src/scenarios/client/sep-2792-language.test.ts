import { describe, expect, test } from 'vitest';
import {
  InlineClientRunner,
  runClientAgainstScenario
} from './auth/test_helpers/testClient';
import { testScenarioContext } from '../../mock-server/testing';
import { getHandler } from '../../../examples/clients/typescript/everything-client';
import { runClient as brokenClient } from '../../../examples/clients/typescript/sep-2792-broken-language';
import { DRAFT_PROTOCOL_VERSION, type ConformanceCheck } from '../../types';
import {
  acceptLanguageIsValid,
  Sep2792ClientLanguageScenario
} from './sep-2792-language';

const SCENARIO = 'sep-2792-client-language';

/** Every check id the scenario emits. */
const CHECK_IDS = [
  'sep-2792-client-meta-every-request',
  'sep-2792-client-value-grammar',
  'sep-2792-client-http-mirror',
  'sep-2792-single-field-line',
  'sep-2792-cache-no-cross-language',
  'sep-2792-cache-key-language'
];

function status(checks: ConformanceCheck[], name: string): string | undefined {
  return checks.find((c) => c.name === name)?.status;
}

describe('sep-2792-client-language — everything-client', () => {
  test('passes every check, each check id emitted', async () => {
    const handler = getHandler(SCENARIO);
    if (!handler) throw new Error(`No handler registered for ${SCENARIO}`);
    const checks = await runClientAgainstScenario(
      new InlineClientRunner(handler),
      SCENARIO,
      { specVersion: DRAFT_PROTOCOL_VERSION }
    );
    expect(checks.filter((c) => c.status !== 'SUCCESS')).toEqual([]);
    expect(new Set(checks.map((c) => c.id))).toEqual(new Set(CHECK_IDS));
    // 4 steps: 4 checks each, a cache check from step 2 on, the same-language key check at step 2.
    expect(checks).toHaveLength(17);
  });
});

describe('sep-2792-client-language — broken client', () => {
  test('emits FAILURE or WARNING for each rule the broken client breaks', async () => {
    const checks = await runClientAgainstScenario(
      new InlineClientRunner(brokenClient),
      SCENARIO,
      {
        specVersion: DRAFT_PROTOCOL_VERSION,
        expectedFailureSlugs: CHECK_IDS
      }
    );
    // server/discover without the preference, then a POSIX-spelled value.
    expect(status(checks, 'ClientMetaEveryRequest_step1')).toBe('WARNING');
    expect(status(checks, 'ClientValueGrammar_step1')).toBe('FAILURE');
    // The header kept from step 1 while _meta changed.
    expect(status(checks, 'ClientHttpMirror_step2')).toBe('FAILURE');
    // One field line per range (whose join still agrees).
    expect(status(checks, 'ClientAcceptLanguageSingleLine_step3')).toBe(
      'FAILURE'
    );
    expect(status(checks, 'ClientHttpMirror_step3')).toBe('SUCCESS');
    // tools/list answered from a cache keyed by the method alone.
    expect(status(checks, 'ClientCacheKeyHasPreference_step2')).toBe('FAILURE');
    for (const step of [2, 3, 4]) {
      expect(status(checks, `ClientCacheNoCrossPreference_step${step}`)).toBe(
        'FAILURE'
      );
    }
    // The withdrawn preference still sent.
    expect(status(checks, 'ClientMetaEveryRequest_step4')).toBe('WARNING');
    // What it does right passes.
    expect(status(checks, 'ClientMetaEveryRequest_step2')).toBe('SUCCESS');
    expect(status(checks, 'ClientValueGrammar_step3')).toBe('SUCCESS');
    expect(status(checks, 'ClientAcceptLanguageSingleLine_step1')).toBe(
      'SUCCESS'
    );
    // Judged, never "not testable".
    expect(checks.some((c) => c.details?.untestable === true)).toBe(false);
  });
});

describe('sep-2792-client-language — client never connects', () => {
  test('every check fails (or warns, for the SHOULD) as not testable', async () => {
    const scenario = new Sep2792ClientLanguageScenario();
    await scenario.start(testScenarioContext(DRAFT_PROTOCOL_VERSION));
    try {
      const checks = scenario.getChecks();
      expect(new Set(checks.map((c) => c.id))).toEqual(new Set(CHECK_IDS));
      for (const check of checks) {
        expect(check.status).toBe(
          check.id === 'sep-2792-client-meta-every-request'
            ? 'WARNING'
            : 'FAILURE'
        );
        expect(check.errorMessage).toContain('no request');
      }
    } finally {
      await scenario.stop();
    }
  });
});

describe('sep-2792-client-language — Accept-Language grammar', () => {
  test.each([
    'fr-CA,fr;q=0.9,en;q=0.5',
    'de-DE, en;q=0.5',
    '*',
    'en;q=0',
    'en ; Q=1.000',
    'zh-Hant-TW',
    ''
  ])('accepts %j', (value) => {
    expect(acceptLanguageIsValid(value)).toBe(true);
  });

  test.each([
    'fr_CA',
    ' en',
    'en ',
    'en;q=1.5',
    'en;q=0.1234',
    'en,,fr',
    'toolongtag',
    'en-',
    'en;q=',
    'en\r\nX-Injected: 1'
  ])('refuses %j', (value) => {
    expect(acceptLanguageIsValid(value)).toBe(false);
  });
});
