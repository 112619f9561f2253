/// `EXISTS (subquery)` for a flag each row of a statement carries about
/// one user (whether the viewer voted for it, follows it, is a member of
/// it), answered by one lookup per row.
///
/// The server plans its statements once per connection, generically
/// (`PostgresConfiguration.forceGenericPlans`), for a user of average
/// history. For such a flag PostgreSQL then prefers a hashed subplan: it
/// reads all of the user's rows (every vote they ever cast) to answer for
/// the few rows of one page, and the more a user has done, the slower every
/// page they open. `OFFSET 0` keeps PostgreSQL from turning the subquery
/// into a join or a hash, so each row costs one probe of the index on
/// (row, user), whoever asks (docs/performance.md, "Measured choices").
package func existsPerRow(_ subquery: String) -> String {
    "EXISTS (\(subquery) OFFSET 0)"
}
