import { TmDoctorPanel } from './tm-doctor-panel.component';

if (!customElements.get('tm-doctor-panel')) customElements.define('tm-doctor-panel', TmDoctorPanel);

declare global {
  interface HTMLElementTagNameMap {
    'tm-doctor-panel': TmDoctorPanel;
  }
}
