import { css, html, LitElement, unsafeCSS, type PropertyValues } from 'lit';
import type uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css?inline';
import { dashStyles } from './styles';

/** Axis steps for counts: whole numbers only (uPlot picks the smallest that keeps the ticks apart). */
const WHOLE_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000, 2_000, 2_500, 5_000, 10_000, 20_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 10_000_000];
const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
}

/**
 * A chart of counts drawn by uPlot (loaded with the first chart, not in the initial bundle): `kind` `line` for time series
 * (x = `labels` as ISO days), `bars` for categories (the funnel). The same numbers are in a table for screen readers
 * and for copying. `<dash-chart kind="bars" .labels=${[…]} .series=${[{ label, values, color }]} caption="…">`.
 */
export class DashChart extends LitElement {
  static override styles = [
    dashStyles,
    unsafeCSS(uplotCss),
    css`
      figure { margin: 0; }
      .plot { min-height: 220px; }
      details { margin-top: 0.5rem; }
    `,
  ];
  static override properties = { kind: {}, caption: {}, labels: { attribute: false }, series: { attribute: false } };
  kind: 'line' | 'bars' = 'line';
  caption = '';
  labels: string[] = [];
  series: ChartSeries[] = [];
  private plot: uPlot | undefined;
  private resize = new ResizeObserver(() => this.plot?.setSize(this.size()));

  override connectedCallback(): void {
    super.connectedCallback();
    this.resize.observe(this);
  }
  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resize.disconnect();
    this.plot?.destroy();
    this.plot = undefined;
  }

  private size() {
    return { width: Math.max(240, this.clientWidth), height: 240 };
  }

  protected override async updated(changed: PropertyValues): Promise<void> {
    if (!changed.has('labels') && !changed.has('series') && !changed.has('kind')) return;
    const { default: UPlot } = await import('uplot');
    this.plot?.destroy();
    const target = this.renderRoot.querySelector('.plot') as HTMLElement;
    const xs = this.kind === 'line' ? this.labels.map((d) => Date.parse(d.length === 10 ? `${d}T00:00:00Z` : d) / 1000) : this.labels.map((_, i) => i);
    const bars = this.kind === 'bars' ? UPlot.paths.bars!({ size: [0.6, 80] }) : undefined;
    const stagger = this.kind === 'bars' && this.size().width / Math.max(1, this.labels.length) < 110;
    this.plot = new UPlot(
      {
        ...this.size(),
        title: undefined,
        // The numbers are in the table under the chart; uPlot's hover legend would only repeat them as "--".
        legend: { show: false },
        // Bars: half a slot of room either side, so the first and last bars are whole; one tick per category.
        scales: {
          x: this.kind === 'bars' ? { time: false, range: () => [-0.5, this.labels.length - 0.5] } : { time: true },
          // Counts: from 0, at least up to 1, so a chart of a few items never shows 0.2, 0.4… on its axis.
          y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
        },
        axes: [
          {
            font: AXIS_FONT,
            size: stagger ? 52 : 36,
            // On a narrow screen every other category label drops a line, so neighbours never run into each other.
            ...(this.kind === 'bars' ? { incrs: [1], values: (_u: uPlot, splits: number[]) => splits.map((i) => `${stagger && i % 2 === 1 ? '\n' : ''}${this.labels[i] ?? ''}`) } : {}),
          },
          // Whole numbers only; a narrow axis (the numbers are short) leaves the bars' labels room to stand apart.
          { font: AXIS_FONT, size: 44, incrs: WHOLE_STEPS, values: (_u: uPlot, splits: number[]) => splits.map((v) => (Number.isInteger(v) ? v.toLocaleString('en-NG') : '')) },
        ],
        series: [{}, ...this.series.map((s) => ({ label: s.label, stroke: s.color, fill: this.kind === 'bars' ? s.color : undefined, paths: bars, points: { show: this.kind === 'line' } }))],
      },
      [xs, ...this.series.map((s) => s.values)],
      target,
    );
  }

  override render() {
    return html`<figure>
      <div class="plot" aria-hidden="true"></div>
      <figcaption class="muted">${this.caption}</figcaption>
      <details>
        <summary>Show the numbers</summary>
        <div class="table-wrap">
          <table>
            <thead><tr><th scope="col">${this.kind === 'line' ? 'Day' : 'Stage'}</th>${this.series.map((s) => html`<th scope="col" class="num">${s.label}</th>`)}</tr></thead>
            <tbody>${this.labels.map((label, i) => html`<tr><th scope="row">${label}</th>${this.series.map((s) => html`<td class="num">${s.values[i] ?? 0}</td>`)}</tr>`)}</tbody>
          </table>
        </div>
      </details>
    </figure>`;
  }
}
customElements.define('dash-chart', DashChart);
