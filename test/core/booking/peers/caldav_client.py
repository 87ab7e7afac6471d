"""A phone's calendar app, played by Debian's python3-caldav: discovers the member's calendar from the server's
root, writes an event in Europe/Paris across the spring DST change, finds it by a time-range search, syncs by
token, asks free-busy and deletes. Prints one JSON object (what the test checks)."""
import datetime
import json
import sys

import caldav

url, user, password = sys.argv[1], sys.argv[2], sys.argv[3]
out = {}
client = caldav.DAVClient(url=url, username=user, password=password)
principal = client.principal()
out["principal"] = str(principal.url)
calendars = principal.calendars()
out["calendars"] = [str(c.url) for c in calendars]
cal = calendars[0]

ICS = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//python3-caldav test//EN
BEGIN:VEVENT
UID:dentist-2030@phone.example
DTSTAMP:20300101T000000Z
DTSTART;TZID=Europe/Paris:20300331T100000
DTEND;TZID=Europe/Paris:20300331T110000
SUMMARY:Dentist
END:VEVENT
END:VCALENDAR
"""
event = cal.save_event(ICS)
out["event_url"] = str(event.url)
token = cal.objects_by_sync_token(load_objects=False).sync_token
out["token"] = token
found = cal.search(
    start=datetime.datetime(2030, 3, 31, 0, 0, tzinfo=datetime.timezone.utc),
    end=datetime.datetime(2030, 4, 1, 0, 0, tzinfo=datetime.timezone.utc),
    event=True,
)
out["found"] = [str(e.icalendar_component.get("summary")) for e in found]
# Moved an hour later from the phone: the sync since the token sees the change.
event.data = ICS.replace("T100000", "T120000").replace("T110000", "T130000")
event.save()
changed = cal.objects_by_sync_token(sync_token=token, load_objects=True)
out["changed"] = [str(o.url) for o in changed]
fb = cal.freebusy_request(
    datetime.datetime(2030, 3, 31, 0, 0, tzinfo=datetime.timezone.utc),
    datetime.datetime(2030, 4, 1, 0, 0, tzinfo=datetime.timezone.utc),
)
out["freebusy"] = fb.data
print(json.dumps(out))
