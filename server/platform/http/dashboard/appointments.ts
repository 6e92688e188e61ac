import { z } from 'zod';
import { APPOINTMENT_STATUSES } from '../../domain/appointments/appointment';
import { dashboardAppointment, listDashboardAppointments } from '../../domain/appointments/dashboard-appointments';
import type { DashboardArea } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD');
const ListQuery = PageQuery.extend({ status: z.enum(APPOINTMENT_STATUSES).optional(), from: Day.optional(), to: Day.optional() });
const Id = z.object({ id: z.string().min(1).max(64) });

/**
 * Telemedicine appointments (clinics): the organisation's, in the caller's mode, newest start first, keyset-paged;
 * filters `status`, `from`, `to` (UTC days). Times, status and participants' names and roles; no medical notes and no
 * meeting links (docs/dashboard/appointments.md).
 */
export const appointmentsRoutes: DashboardArea = (router, kit) => {
  router.get('/appointments', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'appointments.read');
    const query = kit.parse(ListQuery, req.query, 'query');
    const rows = await listDashboardAppointments(kit.platform.db, { organisationId: session.organisationId, mode }, {
      status: query.status,
      from: query.from,
      to: query.to,
      after: decodeCursor(query.cursor),
      limit: query.limit + 1,
    });
    kit.page(res, 'Appointments.', pageOf(rows, query.limit, (row) => ({ at: row.appointmentStartTime, id: row._id })));
  });

  router.get('/appointments/:id', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'appointments.read');
    const { id } = kit.parse(Id, req.params, 'query');
    kit.ok(res, 200, 'Appointment.', await dashboardAppointment(kit.platform.db, { organisationId: session.organisationId, mode }, id));
  });
};
