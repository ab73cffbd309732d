import Testing

@testable import HTTP

@Suite("Cookies")
struct CookieTests {
    private func request(_ cookies: String...) -> Request {
        Request(method: .get, path: "/", headers: HTTPHeaders(cookies.map { ("Cookie", $0) }))
    }

    @Test("a cookie is found by its exact name among several, whitespace and quotes dropped")
    func reads() {
        let request = request(#"a=1;  __Host-s = "two" ;b=3=4"#)
        #expect(request.cookie(named: "a") == "1")
        #expect(request.cookie(named: "b") == "3=4")
        #expect(request.cookie(named: "A") == nil)
        #expect(request.cookie(named: "__Host-s") == "two")
        #expect(request.cookie(named: "missing") == nil)
    }

    @Test("several Cookie fields are one list; a name sent twice has no single value")
    func repeated() {
        let request = request("a=1", "b=2; a=3")
        #expect(request.cookieValues(named: "a") == ["1", "3"])
        #expect(request.cookie(named: "a") == nil)
        #expect(request.cookie(named: "b") == "2")
    }

    @Test("pairs without '=' and empty pairs are skipped")
    func malformed() {
        let request = request(";;novalue; c=; d=4")
        #expect(request.cookie(named: "novalue") == nil)
        #expect(request.cookie(named: "c") == "")
        #expect(request.cookie(named: "d") == "4")
    }

    @Test("Set-Cookie values carry their attributes, one field per cookie")
    func setCookie() {
        var response = Response()
        response.setCookie(SetCookie(name: "__Host-s", value: "v", maxAge: 60, secure: true, sameSite: .lax))
        response.setCookie(
            SetCookie(name: "c", value: "w", maxAge: nil, secure: false, sameSite: .strict, httpOnly: false))
        response.setCookie(SetCookie(name: "gone", value: "", maxAge: -5, secure: true, sameSite: .none))
        #expect(
            response.setCookies == [
                "__Host-s=v; Path=/; Max-Age=60; Secure; HttpOnly; SameSite=Lax", "c=w; Path=/; SameSite=Strict",
                "gone=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=None",
            ])
    }
}
