import { css, html, LitElement, unsafeCSS, type PropertyValues } from 'lit';
import type uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css?inline';
import { dashStyles } from './styles';

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
}

/**
 * A chart drawn by uPlot (loaded with the first chart, not in the initial bundle): `kind` `line` for time series
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
    this.plot = new UPlot(
      {
        ...this.size(),
        title: undefined,
        // The numbers are in the table under the chart; uPlot's hover legend would only repeat them as "--".
        legend: { show: false },
        // Bars: half a slot of room either side, so the first and last bars are whole; one tick per category.
        scales: { x: this.kind === 'bars' ? { time: false, range: () => [-0.5, this.labels.length - 0.5] } : { time: true } },
        axes: [this.kind === 'bars' ? { incrs: [1], values: (_u, splits) => splits.map((i) => this.labels[i] ?? '') } : {}, {}],
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
