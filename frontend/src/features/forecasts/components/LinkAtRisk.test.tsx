/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import { inDays, linkForecast, NOW } from '../testForecast';
import { LinkAtRisk } from './LinkAtRisk';

function renderHeader(props: Partial<ComponentProps<typeof LinkAtRisk>> = {}) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <LinkAtRisk
          answer={{
            link: 7,
            horizon_days: 7,
            min_confidence: 0.8,
            failed: null,
            forecast: linkForecast({ crossing_at: inDays(2.3) }),
          }}
          now={NOW}
          ticket={null}
          canOpen={false}
          {...props}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('LinkAtRisk', () => {
  it('says in the header which reading crosses its limit, when, and why', () => {
    renderHeader();
    const header = screen.getByTestId('link-at-risk');
    expect(header).toHaveTextContent('At risk');
    expect(screen.getByTestId('link-at-risk-crossing')).toHaveTextContent(
      'Z end Rx lane 3 crosses its limit in ~2.3 d, 2026-11-29 15:12 UTC',
    );
    expect(screen.getByTestId('link-at-risk-cause')).toHaveTextContent(
      'Probable cause: contamination. Recommended: Clean the connectors, p0-fab0:eth1/1 (end Z) first.',
    );
  });

  it('says a reading at its limit when the forecast was made is at its limit now', () => {
    renderHeader({
      answer: {
        link: 7,
        horizon_days: 7,
        min_confidence: 0.8,
        forecast: linkForecast({ crossing_at: NOW.toISOString(), earliest_at: NOW.toISOString() }),
        failed: null,
      },
    });
    expect(screen.getByTestId('link-at-risk-crossing')).toHaveTextContent('Z end Rx lane 3 is at its limit now');
  });

  it('offers the preventive ticket to those who may open one', () => {
    renderHeader({ canOpen: true });
    expect(screen.getByRole('button', { name: 'Open preventive ticket' })).toBeEnabled();
  });

  it('hides the button from roles that may not open tickets', () => {
    renderHeader({ canOpen: false });
    expect(screen.queryByRole('button', { name: 'Open preventive ticket' })).toBeNull();
  });

  it('links the unresolved ticket instead of the button', () => {
    renderHeader({ canOpen: true, ticket: { id: 6, kind: 'preventive', state: 'in_progress' } });
    expect(screen.getByRole('link', { name: 'Preventive ticket #6' })).toHaveAttribute('href', '/tickets/6');
    expect(screen.getByTestId('at-risk-ticket')).toHaveTextContent('(in progress)');
    expect(screen.queryByRole('button', { name: 'Open preventive ticket' })).toBeNull();
  });

  it('shows nothing when the link is not at risk or has no forecast', () => {
    const { container, rerender } = renderHeader({
      answer: {
        link: 7,
        horizon_days: 7,
        min_confidence: 0.8,
        forecast: linkForecast({ at_risk: false }),
        failed: null,
      },
    });
    expect(container).toBeEmptyDOMElement();
    rerender(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <LinkAtRisk
            answer={{ link: 7, horizon_days: 7, min_confidence: 0.8, forecast: null, failed: null }}
            now={NOW}
            ticket={null}
            canOpen
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
