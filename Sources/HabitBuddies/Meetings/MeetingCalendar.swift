import Foundation
import HuddleCore

/// A meeting as an iCalendar object (RFC 5545) a calendar app imports: one
/// VEVENT in UTC, the checklist in its description.
enum MeetingCalendar {
    static func ics(
        _ meeting: MeetingRecord, organizer: String, invitee: String, checklist: [String], host: String = "huddle.example"
    ) -> String {
        var description = meeting.description
        if !checklist.isEmpty {
            description += (description.isEmpty ? "" : "\n\n") + checklist.map { "☐ " + $0 }.joined(separator: "\n")
        }
        let status =
            switch meeting.status {
            case "ACCEPTED": "CONFIRMED"
            case "PROPOSED": "TENTATIVE"
            default: "CANCELLED"
            }
        let lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Huddle//Habit Buddies//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
            "BEGIN:VEVENT",
            "UID:meeting-\(meeting.id)@\(host)",
            "DTSTAMP:\(stamp(meeting.updatedAt))",
            "DTSTART:\(stamp(meeting.startsAt))",
            "DTEND:\(stamp(meeting.endsAt))",
            "SUMMARY:\(text("Habit Buddies check-in: \(organizer) and \(invitee)"))",
            "DESCRIPTION:\(text(description))",
            "STATUS:\(status)",
            "END:VEVENT", "END:VCALENDAR",
        ]
        return lines.flatMap(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// `YYYYMMDDTHHMMSSZ`: the API's RFC 3339 instant (`YYYY-MM-DDTHH:MM:SS.mmmZ`) in iCalendar's basic form.
    static func stamp(_ date: Date) -> String {
        Instant.text(date).prefix(19).filter { $0 != "-" && $0 != ":" } + "Z"
    }

    /// A TEXT value: backslash, semicolon, comma and newline escaped (RFC 5545 §3.3.11).
    static func text(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\n": escaped += "\\n"
            case "\r": continue
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A content line folded at 75 octets, never inside a UTF-8 sequence (§3.1).
    static func fold(_ line: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            let limit = lines.isEmpty ? 75 : 74  // continuation lines start with a space
            if octets + size > limit {
                lines.append(current)
                current = ""
                octets = 0
            }
            current.append(character)
            octets += size
        }
        lines.append(current)
        return lines.enumerated().map { index, part in index == 0 ? part : " " + part }
    }
}
