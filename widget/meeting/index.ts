/** The meeting page bundle (dist/meeting/meeting.js): defines `tm-meeting` and `tm-doctor-panel`. Never part of the checkout bundle. */
import './tm-meeting/tm-meeting';
