import { eventByDavName } from '../store/dav';
import { appointmentIdOfName, eventResource, type DavCalendar } from './davCalendar';
import { DavProblem } from './davProblem';
import { checkConditions, type Conditions } from './putDavEvent';

/** A DAV client deletes an event (a tombstone keeps it in sync reports); appointments are read only (403). */
export async function deleteDavEvent(cal: DavCalendar, name: string, conditions: Conditions): Promise<void> {
  if (appointmentIdOfName(name))
    throw new DavProblem(
      403,
      { ns: 'DAV:', name: 'need-privileges' },
      'appointments are cancelled through the booking',
    );
  const event = await eventByDavName(cal.ctx.em, cal.userId, name);
  if (!event) throw new DavProblem(404, null, 'no such resource');
  checkConditions(eventResource(event, cal.zone).etag, conditions);
  await cal.ctx.em.remove(event).flush();
}
