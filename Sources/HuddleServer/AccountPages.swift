import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// The pages mail's links open, under /account/: a GET shows a form (so a
/// mail scanner that fetches every link uses up nothing), and its POST
/// does the thing: confirm an address, set a new password, confirm a new
/// address. The token travels in the form, and the pages send no referrer,
/// are not cached and cannot be framed.
package struct AccountPages: Sendable {
    package let database: PostgresPool
    package let tokens: TokenCache?

    /// With standbys: what each user's reads must see, which a link
    /// followed here moves on (their address confirmed, changed).
    let writePositions: WritePositions?

    package init(database: PostgresPool, tokens: TokenCache?, writePositions: WritePositions? = nil) {
        self.writePositions = writePositions
        self.database = database
        self.tokens = tokens
    }

    private struct Page {
        var title: String
        var explanation: String
        var button: String
        /// Whether the form asks for a new password.
        var asksForPassword = false
        var done: String
    }

    private static let pages: [Substring: Page] = [
        "/account/verify-email": Page(
            title: "Confirm your email address", explanation: "Confirm that this address is yours, so Huddle may send you mail.",
            button: "Confirm my address", done: "Your address is confirmed. You can close this page."),
        "/account/reset-password": Page(
            title: "Choose a new password",
            explanation: "Choose a new password of at least 8 characters. Every device you are signed in on will be signed out.",
            button: "Set my new password", asksForPassword: true, done: "Your password is changed. Sign in with it on your devices."),
        "/account/export": Page(
            title: "Download your data",
            explanation: "Download everything your Huddle account holds, as one JSON file. The link works once.",
            button: "Download my data", done: ""),
        "/account/confirm-email": Page(
            title: "Confirm your new email address", explanation: "Confirm that this is the new address of your Huddle account.",
            button: "Confirm this address", done: "Your account's address is changed and confirmed. You can close this page."),
    ]

    /// The response for `request`, or nil when its path is not one of these pages.
    package func respond(to request: HTTPRequest) async -> HTTPResponse? {
        let target = request.head.target
        let path = Routes.path(of: target)
        guard let page = Self.pages[path] else { return nil }
        switch request.head.method {
        case "GET", "HEAD":
            let query = target.firstIndex(of: "?").map { target[target.index(after: $0)...] } ?? ""
            let token = FormURLEncoded.pairs(query)?.last { $0.name == "token" }?.value ?? ""
            return Self.html(200, page.title, form(page, path: path, token: token))
        case "POST":
            guard
                request.head.header("content-type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
                let fields = FormURLEncoded.pairs(Substring(decoding: request.body, as: UTF8.self))
            else {
                return Self.html(415, page.title, "<p>This page takes its own form only.</p>")
            }
            let token = fields.last { $0.name == "token" }?.value ?? ""
            let password = fields.last { $0.name == "password" }?.value ?? ""
            do {
                switch path {
                case "/account/export":
                    let export = try await DataExport.download(token: token, database: database)
                    let name = "huddle-data-\(export.username.filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }).json"
                    return HTTPResponse(
                        status: 200,
                        headers: [
                            ("Content-Type", "application/json; charset=utf-8"),
                            ("Content-Disposition", "attachment; filename=\"\(name)\""),
                            ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff"),
                        ],
                        body: Array(export.document.utf8))
                case "/account/verify-email":
                    await wrote(for: try await AccountEmail.verify(token: token, database: database).id)
                case "/account/reset-password":
                    // Every token of the account ends: its next read is a new sign-in's.
                    try await AccountEmail.resetPassword(token: token, newPassword: password, database: database, tokens: tokens)
                default: await wrote(for: try await AccountEmail.confirmChange(token: token, database: database).id)
                }
                return Self.html(200, page.title, "<p>\(htmlEscaped(page.done))</p>")
            } catch let error as GraphQLError {
                let again = page.asksForPassword ? form(page, path: path, token: token) : ""
                return Self.html(400, page.title, "<p role=\"alert\"><strong>\(htmlEscaped(error.message))</strong></p>\n" + again)
            } catch {
                return Self.html(503, page.title, "<p role=\"alert\">This cannot be done just now; try again in a minute.</p>")
            }
        default:
            return Routes.methodNotAllowed(allow: "GET, HEAD, POST")
        }
    }

    /// The user's reads see what a page changed for them, on any device.
    private func wrote(for user: Int64) async {
        guard let writePositions else { return }
        do {
            _ = try await writePositions.measure(for: [user], on: database)
        } catch {
            writePositions.markUnsure([user])
        }
    }

    private func form(_ page: Page, path: Substring, token: String) -> String {
        var form = "<p>\(htmlEscaped(page.explanation))</p>\n<form method=\"post\" action=\"\(htmlEscaped(String(path)))\">\n"
        form += "<input type=\"hidden\" name=\"token\" value=\"\(htmlEscaped(token))\">\n"
        if page.asksForPassword {
            form +=
                "<label>New password <input type=\"password\" name=\"password\" minlength=\"8\" required autocomplete=\"new-password\"></label>\n"
        }
        return form + "<button type=\"submit\">\(htmlEscaped(page.button))</button>\n</form>"
    }

    private static func html(_ status: Int, _ title: String, _ body: String) -> HTTPResponse {
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(htmlEscaped(title)) · Huddle</title></head>
            <body style="font-family: sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5">
            <h1>\(htmlEscaped(title))</h1>
            \(body)
            </body></html>

            """
        return HTTPResponse(
            status: status,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'"),
                ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
            ],
            body: Array(page.utf8))
    }
}
