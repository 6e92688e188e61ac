/** The operations console's entry: the shell (`<ops-app>`), built on the dashboard's UI kit. */
import './ops-app';
