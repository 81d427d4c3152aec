/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { planBars, stackBreakdowns, sweepLines } from '../planData';
import { CLASSES, CLASSES_TOPOLOGY, PLAN_HIGH, PLAN_LOW } from '../testPlans';
import { BreakdownChart } from './BreakdownChart';
import { ClassFabricDrawing } from './ClassFabricDrawing';
import { GoodPathChart } from './GoodPathChart';
import { LineChart } from './LineChart';
import { LinkChoicesTable } from './LinkChoicesTable';
import { buildBreakdownChart, buildSavingsChart } from './planCharts';

describe('BreakdownChart', () => {
  it('draws baseline and plan as stacked bars with their totals and a legend of Table 4.1 rows', () => {
    const stacked = stackBreakdowns(planBars(PLAN_LOW));
    const chart = buildBreakdownChart(stacked.bars, stacked.series, { width: 640, height: 320 });
    render(<BreakdownChart chart={chart} summary="Cost breakdown" testId="breakdown" />);
    const bars = screen.getAllByTestId('breakdown-bar');
    expect(bars.map((bar) => bar.getAttribute('data-label'))).toEqual(['Baseline (rated reach)', 'Plan (NRB 99%)']);
    expect(within(bars[0]!).getByText('$21.2K')).toBeInTheDocument();
    expect(within(bars[1]!).getByText('$20.3K')).toBeInTheDocument();
    expect(within(bars[0]!).getAllByTestId('breakdown-segment')).toHaveLength(6);
    const legend = screen.getByRole('list', { name: 'Cost breakdown legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '10GBASE-SR transceivers',
      '10GBASE-LR transceivers',
      'MMF fiber',
      'SMF fiber',
      'Switch ports',
      'Switch power',
    ]);
    // Taller bar, higher top: the baseline costs more.
    const top = (bar: HTMLElement) =>
      Math.min(
        ...within(bar)
          .getAllByTestId('breakdown-segment')
          .map((rect) => Number(rect.getAttribute('y'))),
      );
    expect(top(bars[0]!)).toBeLessThan(top(bars[1]!));
  });

  it('puts two plans side by side, each with its baseline', () => {
    const stacked = stackBreakdowns([...planBars(PLAN_LOW, '#1 low'), ...planBars(PLAN_HIGH, '#2 high')]);
    const chart = buildBreakdownChart(stacked.bars, stacked.series, { width: 800, height: 340 });
    render(<BreakdownChart chart={chart} summary="Two plans" testId="comparison" />);
    expect(screen.getAllByTestId('comparison-bar')).toHaveLength(4);
    expect(screen.getByText('#1 low')).toBeInTheDocument();
    expect(screen.getByText('#2 high')).toBeInTheDocument();
  });
});

describe('savings chart', () => {
  it('draws one curve per stretch level with the peaks marked and a legend', () => {
    const chart = buildSavingsChart(sweepLines(PLAN_LOW.sweeps), { width: 640, height: 300 }, 560);
    render(<LineChart {...chart} xTitle="Longest link (m)" yTitle="Saved (%)" summary="Savings" testId="savings" />);
    expect(screen.getAllByTestId('savings-line')).toHaveLength(3);
    expect(screen.getAllByTestId('savings-peak')).toHaveLength(2);
    expect(screen.getByText('this fabric: 560 m')).toBeInTheDocument();
    const legend = screen.getByRole('list', { name: 'Savings legend' });
    expect(legend).toHaveTextContent('No stretch');
    expect(legend).toHaveTextContent('Stretch (high stretch, NRB 95%)');
  });
});

describe('ClassFabricDrawing', () => {
  it('draws the class on the fabric: members coloured, others grey, the worst path and repairs marked', () => {
    const loosest = CLASSES.classes.at(-1)!;
    const { container } = render(
      <ClassFabricDrawing topology={CLASSES_TOPOLOGY} cls={loosest} repair={CLASSES.repair} />,
    );
    const lines = (role: string) => container.querySelectorAll(`line[data-role="${role}"]`).length;
    expect(lines('worst')).toBe(4);
    expect(lines('repair')).toBe(1);
    expect(lines('member') + lines('worst')).toBe(loosest.link_count);
    expect(lines('other')).toBe(0);
    expect(screen.getByRole('img')).toHaveAccessibleName(/worst path tor0, agg0, core1, agg4, tor5 with loss 0.40%/);
    expect(screen.getByRole('list', { name: 'Class drawing legend' })).toHaveTextContent(/Marked for repair\s*1/);
  });
});

describe('LinkChoicesTable', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** The plan's rows as GET /api/rail/plans/7/links/ serves them: `total` rows, `stretched` filtered. */
  function serveRows(total: number) {
    const requests: URLSearchParams[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const query = new URL(url, 'http://ui').searchParams;
        requests.push(query);
        const every =
          query.get('stretched') === 'true' ? PLAN_LOW.links.filter((link) => link.stretched) : PLAN_LOW.links;
        const offset = Number(query.get('offset'));
        const rows = Array.from(
          { length: Math.min(Number(query.get('limit')), Math.max(0, total - offset)) },
          (_, i) => ({
            ...every[(offset + i) % every.length]!,
            link: offset + i,
          }),
        );
        const count = query.get('stretched') === 'true' ? every.length : total;
        return new Response(JSON.stringify({ count, results: rows.slice(0, count - offset) }), {
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    return requests;
  }

  const renderTable = () =>
    render(
      <QueryClientProvider client={new QueryClient()}>
        <LinkChoicesTable
          jobId={7}
          rows={{ count: 100224, longest_m: 480, parts: ['10GBASE-LR', '10GBASE-SR'] }}
          stored={false}
        />
      </QueryClientProvider>,
    );

  it('pages through the rows on the server, 50 at a time', async () => {
    const requests = serveRows(100224);
    renderTable();
    expect(await screen.findByText('100,224 of 100,224 links')).toHaveAttribute('data-testid', 'plan-links-count');
    expect(screen.getAllByTestId('plan-link-row')).toHaveLength(50);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(/51–100 of 100,224 · page 2 of 2005/)).toBeInTheDocument();
    expect(requests.at(-1)?.get('offset')).toBe('50');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'any',
      '10GBASE-LR',
      '10GBASE-SR',
    ]);
  });

  it('asks the server for the stretched links only, from the first page', async () => {
    const requests = serveRows(100224);
    renderTable();
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByLabelText('Stretched links only'));
    expect(await screen.findByText('8 of 100,224 links')).toBeInTheDocument();
    expect(requests.at(-1)?.get('stretched')).toBe('true');
    expect(requests.at(-1)?.get('offset')).toBe('0');
    const rows = screen.getAllByTestId('plan-link-row');
    expect(rows).toHaveLength(8);
    for (const row of rows) expect(row).toHaveTextContent(/10GBASE-LR\s*10GBASE-SR\s*stretched/);
  });
});

describe('GoodPathChart', () => {
  it('names the worst pair and draws the per-ToR distributions', () => {
    render(
      <GoodPathChart
        fractions={PLAN_HIGH.good_paths!}
        bound={0.95}
        width={640}
        what="expected good paths"
        testId="gp"
      />,
    );
    expect(screen.getByTestId('gp-worst')).toHaveTextContent('Worst ToR pair: tor0 → tor3, 96.85%.');
    expect(screen.getAllByTestId('gp-line')).toHaveLength(2);
    expect(screen.getByTestId('gp-marker')).toHaveTextContent('bound 95.00%');
  });

  it('says so instead of drawing when every ToR keeps every path', () => {
    const all = CLASSES.classes.at(-1)!.kept_paths!;
    const full = { ...all, per_tor: all.per_tor.map((tor) => ({ ...tor, mean: 1, min: 1 })) };
    render(<GoodPathChart fractions={full} bound={null} width={640} what="share of paths kept" testId="kept" />);
    expect(screen.getByTestId('kept-all')).toHaveTextContent(
      'Every ToR’s share of paths kept is 100% for every destination.',
    );
    expect(screen.queryAllByTestId('kept-line')).toHaveLength(0);
  });
});
