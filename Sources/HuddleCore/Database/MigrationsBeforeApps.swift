import HuddlePostgres

extension GlobalNumbering {
    /// Huddle's migrations as they were numbered before each app had its
    /// own (one sequence, 0001-0013, in `Schema/migrations/`), and where
    /// their SQL is now. A database that any Huddle before the split
    /// migrated has applied all thirteen; it is carried over once, the
    /// first time this Huddle migrates it, and nothing runs again.
    ///
    /// The checksums are of the files as they are: a carried migration is
    /// an applied one, and an applied migration never changes (a test
    /// holds them to the files).
    package static let huddle = GlobalNumbering(
        before: [
            Before(1, "0001_accounts.sql", checksum: "ae44bfd52aa255fb40d78738f51004f5327b9f224ce55c4a1049a6b08946e1fd"),
            Before(2, "0002_friends.sql", checksum: "9a11bf081280048b97af1a0f0c8ce2fc7f8614595919634945402d65e7ac165a"),
            Before(3, "0003_sessions.sql", checksum: "be5c113f0d18a240b9961482e10305433d13d1727189128791aca7e141796ae6"),
            Before(
                4, "0004_invitations_quiz_notifications.sql", checksum: "260a67dfe627e04647ed184c93c7c27612e10038d94f91d44a212acaacc09ff3"),
            Before(5, "0005_planner_and_player_order.sql", checksum: "3dcd362d5669850e6e658396b755b2593764ba303308173b285d976905eaa599"),
            Before(6, "0006_session_player_ids.sql", checksum: "1b44fb941126cc0f30767b8afca92acb537d719ee6d9286c03d9c9e93206cd5c"),
            Before(7, "0007_shared_inbox.sql", checksum: "92b4183305ce69a90751081776ab06bf56b3a8630b2d166dff869787c7e2ba05"),
            Before(8, "0008_scheduled_jobs.sql", checksum: "b399052badee2636e8112d0c307523256a7c9eaf5489926b99937325a664a163"),
            Before(9, "0009_prolific.sql", checksum: "ce5e0f96c4b89630b48d6b664d9e079d7d11c7f86123863291f1fd49103dc80b"),
            Before(10, "0010_petmatch.sql", checksum: "304718b7487dc10f712ae8a20d35ec5cc1fb35e30d498712a16564cec8852686"),
            Before(11, "0011_habit_buddies.sql", checksum: "c5360656700017a565a88aa54fea87e846fee6115fa2dd89d1aa1580a97ded98"),
            Before(12, "0012_token_revocation.sql", checksum: "13bc675514e84e5956d163ffc9dabf78b9d7a8fb7400cc971c038912da7c57a0"),
            Before(13, "0013_shelter_changes.sql", checksum: "9f7b42ba94b40a9858e03ee1cc785dc4c6f1436d7a406c8ac883bb0e4806d1ea"),
        ],
        after: [
            After(
                "shared", 1, "0001_accounts.sql", checksum: "ae44bfd52aa255fb40d78738f51004f5327b9f224ce55c4a1049a6b08946e1fd", from: [1]),
            After("shared", 2, "0002_friends.sql", checksum: "9a11bf081280048b97af1a0f0c8ce2fc7f8614595919634945402d65e7ac165a", from: [2]),
            After(
                "shared", 3, "0003_inbox.sql", checksum: "a39110bc982c0971bf947071a1e09ba3173619df6a53b0d3ef90bfcb60f6b1ff", from: [4, 7]),
            After(
                "shared", 4, "0004_scheduled_jobs.sql", checksum: "b399052badee2636e8112d0c307523256a7c9eaf5489926b99937325a664a163",
                from: [8]),
            After(
                "shared", 5, "0005_token_revocation.sql", checksum: "13bc675514e84e5956d163ffc9dabf78b9d7a8fb7400cc971c038912da7c57a0",
                from: [12]),
            After(
                "shared", 6, "0006_planner_costs.sql", checksum: "3a5a84622f873b58fa71f85df91627dc5961ef2e26cd5a84c56db7df94f01105",
                from: [5]),
            After(
                "playmate", 1, "0001_sessions.sql", checksum: "be5c113f0d18a240b9961482e10305433d13d1727189128791aca7e141796ae6", from: [3]),
            After(
                "playmate", 2, "0002_invitations_and_quiz.sql",
                checksum: "1dcda3591988143d69dcd77e30966d7106156f6895c10d2fcad68775a35fe37f", from: [4]),
            After(
                "playmate", 3, "0003_player_order.sql", checksum: "fa05cb093f806fcd450fb1e529af8cc16efea2e48e3b67977a96ee1ed1f675ef",
                from: [5]),
            After(
                "playmate", 4, "0004_session_player_ids.sql", checksum: "1b44fb941126cc0f30767b8afca92acb537d719ee6d9286c03d9c9e93206cd5c",
                from: [6]),
            After(
                "prolific", 1, "0001_prolific.sql", checksum: "1cbb2082bf4c70b0818b22008fdcf6e113c161e6c5cba08aabb9c706fac8b536", from: [9]),
            After(
                "petmatch", 1, "0001_petmatch.sql", checksum: "059d2c8a636c6dd0be827c529f91bd6f640a92d7480e78902c40c6736deed9a4", from: [10]
            ),
            After(
                "petmatch", 2, "0002_shelter_changes.sql", checksum: "9f7b42ba94b40a9858e03ee1cc785dc4c6f1436d7a406c8ac883bb0e4806d1ea",
                from: [13]),
            After(
                "habitbuddies", 1, "0001_habit_buddies.sql", checksum: "c5360656700017a565a88aa54fea87e846fee6115fa2dd89d1aa1580a97ded98",
                from: [11]),
        ],
        advice:
            "migrate it to the end of that numbering (0013_shelter_changes.sql) with the last Huddle before per-app migrations (commit ef9aeb5), then run this one"
    )
}
