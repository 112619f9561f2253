import GraphQL
import HuddleCore
import HuddlePostgres

/// Prolific's pictures: a snippet's and a project's cover. They belong to
/// what carries them (no account's), and a private project's are private:
/// served by signed URLs only, which only its members are given.
enum ProlificPictures {
    /// Takes `user`'s upload for a picture in `project`; its media id.
    static func claim(_ upload: String, by user: Int64, inProject project: Int64, on connection: PostgresConnection) async throws
        -> Int64
    {
        guard let picture = try await Uploads.claim(upload, by: user, for: "prolific", keepingOwner: false, on: connection) else {
            throw APIError.badInput(Uploads.notClaimable)
        }
        _ = try await connection.query(
            "UPDATE media SET private = (SELECT is_private FROM projects WHERE id = $2) WHERE id = $1", [picture.id, project])
        return picture.id
    }

    /// A picture field's path for the size and format asked.
    static func resolve(_ marked: String?, _ input: ResolverInput) -> Resolved {
        guard let marked,
            let path = input.request.pictures.path(
                marked: marked, size: input.argument("size")?.enumValue, format: input.argument("format")?.enumValue)
        else { return .null }
        return .scalar(.string(path))
    }
}
