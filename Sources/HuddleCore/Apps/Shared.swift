import GraphQL
import HuddlePostgres

/// What every app shares, mounted like an app: accounts and profiles,
/// friends, Relay connections, the inbox and its subscriptions.
package enum Shared: App {
    package static let schemaFolder = "shared"
    package static var schemaFiles: [(path: String, text: String)] { EmbeddedSchema.files }

    package static func bind(_ binder: inout SchemaBinder) {
        binder.bindPageInfo()
        AccountResolvers.bind(&binder)
        FriendResolvers.bind(&binder)
        NotificationResolvers.bind(&binder)
        SubscriptionResolvers.bind(&binder)
        PictureResolvers.bind(&binder)
        PlaceResolvers.bind(&binder)
    }

    package static let nodeTypes = [
        NodeType("User", UserRecord.self) { id, context in
            context.loaders.users.load(id) { $0.map { .object($0, typename: "User") } ?? .null }
        },
        // Visible to the two people concerned only.
        NodeType("FriendRequest", FriendRequestRecord.self) { id, context in
            guard let viewer = context.viewer?.userID else { return .null }
            return context.loaders.friendRequests.load(id) { request in
                guard let request, viewer == request.fromUser || viewer == request.toUser else { return .null }
                return .object(request, typename: "FriendRequest")
            }
        },
    ]

    package static let notificationKinds: [NotificationKind] = [.friendRequestReceived, .friendRequestAccepted]
    package static let noticeStyles: [NotificationKind: NoticeStyle] = [
        .friendRequestReceived: NoticeStyle(title: "New friend request"),
        .friendRequestAccepted: NoticeStyle(title: "Friend request accepted", urgency: .low),
    ]

    /// The profile (no password), friends, friend requests, notices,
    /// signed-in devices (no tokens), the mail sent to the account, its push
    /// devices (no tokens or keys: each is a capability to reach the device)
    /// and what it chose to be pushed.
    package static func exportData(of user: Int64, on connection: PostgresConnection) async throws -> String? {
        try await connection.query(
            """
            SELECT jsonb_build_object(
              'profile', (SELECT to_jsonb(u) - 'password_hash' FROM users u WHERE u.id = $1),
              'friends', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', f.friend_id, 'username', u.username, 'since', f.created_at)
                            ORDER BY f.friend_id), '[]') FROM friendships f JOIN users u ON u.id = f.friend_id WHERE f.user_id = $1),
              'friendRequests', (SELECT coalesce(jsonb_agg(to_jsonb(r) ORDER BY r.id), '[]') FROM friend_requests r
                                 WHERE $1 IN (r.from_user, r.to_user)),
              'notifications', (SELECT coalesce(jsonb_agg(to_jsonb(n) ORDER BY n.id), '[]') FROM notifications n WHERE n.user_id = $1),
              'signedInDevices', (SELECT coalesce(jsonb_agg(to_jsonb(t) - 'token_hash' ORDER BY t.id), '[]') FROM auth_tokens t
                                  WHERE t.user_id = $1),
              'mail', (SELECT coalesce(jsonb_agg(jsonb_build_object('to', o.recipient, 'kind', o.template, 'state', o.state,
                         'createdAt', o.created_at, 'sentAt', o.sent_at) ORDER BY o.id), '[]') FROM email_outbox o WHERE o.user_id = $1),
              'pushDevices', (SELECT coalesce(jsonb_agg(jsonb_build_object('platform', e.platform, 'registeredAt', e.created_at,
                                'app', e.apns_topic) ORDER BY e.id), '[]') FROM push_endpoints e WHERE e.user_id = $1),
              'pushPreferences', (SELECT coalesce(jsonb_agg(jsonb_build_object('kind', p.kind, 'push', p.push) ORDER BY p.kind), '[]')
                                  FROM notice_preferences p WHERE p.user_id = $1),
              'quietHours', (SELECT jsonb_build_object('starts', q.starts, 'ends', q.ends, 'timeZone', q.time_zone)
                             FROM quiet_hours q WHERE q.user_id = $1)
            )::text
            """, [user])[0].decode(String.self, at: 0)
    }

    package static let settings = [
        sessionDays, recordDeviceAddresses, signInFreeFailures, signInAddressFreeFailures, signInFirstWait, signInLongestWait,
        passwordResetsPerAddress,
        verificationLinkHours, passwordResetLinkMinutes,
        accountMailPerHour, pushEndpointsPerUser, promotionalPushesPerDay,
        uploadFileMegabytes, uploadFilesPerRequest, uploadRequestMegabytes, uploadsPerHour, uploadLinkMinutes, privatePictureURLMinutes,
        tallyWriteSeconds, tallyHeldReads,
    ]

    /// How often counted reads (a project's page opened) are written.
    package static let tallyWriteSeconds = AppSetting(
        "tally-write-seconds", default: 60, range: 1...3_600,
        help: "how often the reads apps count (page views) are written to the database, in seconds")
    /// How many readers of counted reads a process holds in an hour.
    package static let tallyHeldReads = AppSetting(
        "tally-held-reads", default: 100_000, range: 10...10_000_000,
        help: "distinct readers of a page a process holds in an hour, so that each counts once; more in the hour are not counted")

    /// How long a signed-in device stays signed in unused.
    package static let sessionDays = AppSetting(
        "session-days", default: 30, range: 1...365,
        help: "how long a signed-in device stays signed in without being used, in days; each use starts it again")
    /// Whether a signed-in device's client address is kept and shown to its owner.
    package static let recordDeviceAddresses = AppSetting(
        "record-device-addresses", default: 0, range: 0...1,
        help: "1 keeps the client address each device signed in from and shows it to the account's owner; 0 keeps none")
    /// Failed sign-ins with one name before each further one blocks it.
    package static let signInFreeFailures = AppSetting(
        "sign-in-free-failures", default: 5, range: 1...100,
        help: "failed sign-ins with one name before each further one blocks it for twice as long as the last")
    /// Failed sign-ins from one client address (any names) before each further one blocks it.
    package static let signInAddressFreeFailures = AppSetting(
        "sign-in-address-free-failures", default: 50, range: 1...100_000,
        help: "failed sign-ins from one client address, with any names, before each further one blocks it for twice as long as the last")
    /// Password resets one client address may ask for before each further one blocks it.
    package static let passwordResetsPerAddress = AppSetting(
        "password-resets-per-address", default: 20, range: 1...100_000,
        help: "password resets one client address may ask for, for any addresses, before each further one blocks it")
    /// How long the first failure past the free ones blocks a name.
    package static let signInFirstWait = AppSetting(
        "sign-in-first-wait-seconds", default: 1, range: 1...3600,
        help: "how long the first failed sign-in past the free ones blocks the name; each further one doubles it")
    /// The longest a name is blocked, however many failures.
    package static let signInLongestWait = AppSetting(
        "sign-in-longest-wait-seconds", default: 900, range: 1...86_400,
        help: "the longest a name is blocked after failed sign-ins, and how long its failures are remembered")

    /// How long a link confirming an address works.
    package static let verificationLinkHours = AppSetting(
        "verification-link-hours", default: 48, range: 1...720, help: "how long a link confirming an email address works, in hours")
    /// How long a link to choose a new password works.
    package static let passwordResetLinkMinutes = AppSetting(
        "password-reset-link-minutes", default: 60, range: 5...1440, help: "how long a link to choose a new password works, in minutes")
    /// Messages of one kind (confirmations, resets) an account may be sent in an hour.
    package static let accountMailPerHour = AppSetting(
        "account-mail-per-hour", default: 5, range: 1...100,
        help: "messages of one kind (address confirmations, password resets) an account may be sent in an hour")
    /// Devices one account may register for push.
    package static let pushEndpointsPerUser = AppSetting(
        "push-endpoints-per-user", default: 20, range: 1...1000,
        help: "devices (browsers, phones) one account may register for push; registering another forgets the oldest")
    /// Promotional notices (likes, a favourite pet's news) pushed to one user in 24 hours.
    package static let promotionalPushesPerDay = AppSetting(
        "promotional-pushes-per-day", default: 3, range: 0...1000,
        help: "notices of promotional kinds (a like, a favourite pet's update) pushed to one user in 24 hours; the rest stay in the inbox")

    /// The largest picture one may upload.
    package static let uploadFileMegabytes = AppSetting(
        "upload-file-megabytes", default: 20, range: 1...200, help: "the largest file one may upload, in MiB")
    /// Files in one multipart request.
    package static let uploadFilesPerRequest = AppSetting(
        "upload-files-per-request", default: 10, range: 1...100, help: "files one GraphQL multipart request may carry")
    /// The whole body of a multipart request.
    package static let uploadRequestMegabytes = AppSetting(
        "upload-request-megabytes", default: 64, range: 1...2000,
        help: "the largest GraphQL multipart request, every file and field together, in MiB")
    /// Files one user may upload in an hour.
    package static let uploadsPerHour = AppSetting(
        "uploads-per-hour", default: 60, range: 1...100_000, help: "files one user may upload in an hour")
    /// How long a one-time upload URL works.
    package static let uploadLinkMinutes = AppSetting(
        "upload-link-minutes", default: 15, range: 1...1440, help: "how long a one-time upload URL from createUpload works, in minutes")
    /// How long a private picture's signed URL works, at least.
    package static let privatePictureURLMinutes = AppSetting(
        "private-picture-url-minutes", default: 60, range: 1...10_080,
        help: "how long the signed URL of a private project's picture works, at least, in minutes")
}

extension NotificationKind {
    package static let friendRequestReceived = NotificationKind(rawValue: "FRIEND_REQUEST_RECEIVED")
    package static let friendRequestAccepted = NotificationKind(rawValue: "FRIEND_REQUEST_ACCEPTED")
}
