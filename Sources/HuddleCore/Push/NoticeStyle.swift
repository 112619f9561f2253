import HuddlePush

/// How a kind of notice goes out of the app: its title on the lock screen,
/// how long push services keep it for a device that is away, how urgent it
/// is, and what quiet hours and the daily cap do to it. Each app declares
/// its kinds' (`App.noticeStyles`); docs/push.md lists them.
package struct NoticeStyle: Sendable {
    package var title: String
    /// Seconds a push service keeps it while the device is unreachable.
    package var timeToLive = 86400
    package var urgency = WebPushUrgency.normal
    /// Engagement rather than something the user waits for: at most
    /// `promotional-pushes-per-day` of these are pushed to a user a day.
    package var promotional = false
    /// For a reminder, which is no use late: when quiet hours would hold it
    /// past this many seconds after it was made, it is dropped instead.
    /// Nil: it waits for the quiet hours to end.
    package var staleAfter: Int?
    /// Whether a user who has not said otherwise gets it as a push.
    package var pushByDefault = true
    /// Whether a user who has not said otherwise gets it by mail (none do:
    /// mail is for those who ask).
    package var emailByDefault = false

    package init(
        title: String, timeToLive: Int = 86400, urgency: WebPushUrgency = .normal, promotional: Bool = false, staleAfter: Int? = nil,
        pushByDefault: Bool = true
    ) {
        self.title = title
        self.timeToLive = timeToLive
        self.urgency = urgency
        self.promotional = promotional
        self.staleAfter = staleAfter
        self.pushByDefault = pushByDefault
    }

    /// A reminder: urgent, of no use after an hour.
    package static func reminder(_ title: String) -> NoticeStyle {
        NoticeStyle(title: title, timeToLive: 3600, urgency: .high, staleAfter: 3600)
    }

}

/// Every mounted kind's style, looked up once when the server starts
/// rather than on each notice or request.
package struct NoticeStyles: Sendable {
    private let byKind: [String: NoticeStyle]

    package init(mounting apps: [any App.Type]) {
        var byKind: [String: NoticeStyle] = [:]
        for app in [Shared.self] + apps {
            for (kind, style) in app.noticeStyles where byKind[kind.rawValue] == nil { byKind[kind.rawValue] = style }
        }
        self.byKind = byKind
    }

    /// The style of `kind`; a kind no app styles goes with the server's
    /// name as its title.
    package subscript(kind: String) -> NoticeStyle {
        byKind[kind] ?? NoticeStyle(title: "Huddle")
    }
}
