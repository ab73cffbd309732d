import JSON
import Testing

@testable import HTTP

@Suite("Request body decoding")
struct RequestBodyTests {
    struct Login: Decodable, Equatable {
        let clientID: String
        let realm: String?

        enum CodingKeys: String, CodingKey {
            case clientID = "client_id"
            case realm
        }
    }

    static func request(_ body: String, contentType: String?) -> Request {
        var headers = HTTPHeaders()
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        return Request(method: .post, path: "/x", headers: headers, body: Array(body.utf8))
    }

    @Test("decodeJSON decodes a JSON body with a JSON Content-Type (charset utf-8 allowed)")
    func decodeJSON() throws {
        let login = try Self.request(#"{"client_id":"abc"}"#, contentType: "Application/JSON; charset=\"UTF-8\"")
            .decodeJSON(Login.self)
        #expect(login == Login(clientID: "abc", realm: nil))
    }

    @Test("decodeJSON decodes the parsed body: a JSONValue member keeps its member order and number text")
    func decodeJSONKeepsJSONValue() throws {
        struct Approval: Decodable {
            let action: JSONValue
        }
        let approval = try Self.request(#"{"action":{"z":1.50,"a":[true]}}"#, contentType: "application/json")
            .decodeJSON(Approval.self)
        #expect(approval.action.objectMembers?.map(\.key) == ["z", "a"])
        #expect(approval.action["z"] == .number("1.50"))
    }

    @Test("decodeJSON refuses a missing, non-JSON or non-UTF-8 Content-Type")
    func decodeJSONMediaType() {
        for contentType in [nil, "text/plain", "application/json; charset=iso-8859-1", "application/jsonx"] {
            #expect(throws: HTTPError(.unsupportedMediaType, "")) {
                try Self.request(#"{"client_id":"abc"}"#, contentType: contentType).decodeJSON(Login.self)
            }
        }
    }

    @Test("decodeJSON refuses bad syntax, duplicate names and the wrong shape")
    func decodeJSONMalformed() {
        for body in [#"{"client_id":"abc""#, #"{"client_id":"a","client_id":"b"}"#, #"{"client_id":1}"#, "[]"] {
            #expect(throws: HTTPError(.malformedJSON, "")) {
                try Self.request(body, contentType: "application/json").decodeJSON(Login.self)
            }
        }
    }

    @Test("a decoding error maps to the 400 invalid_request shape")
    func errorResponse() throws {
        let error = #expect(throws: HTTPError.self) {
            try Self.request("{", contentType: "application/json").jsonObject()
        }
        let response = try #require(error).response
        #expect(response.status == 400)
        #expect(response.headers["Content-Type"] == "application/json")
        let body = try JSONValue(parsing: response.body)
        #expect(body["error"] == "invalid_request")
        #expect(body["error_description"]?.stringValue?.isEmpty == false)
        #expect(body.objectMembers?.count == 2)
        #expect(HTTPError(.malformedForm, "").response.status == 400)
        #expect(HTTPError(.unsupportedMediaType, "").response.status == 415)
        #expect(HTTPError(.bodyTooLarge, "").response.status == 413)
        #expect(HTTPError(.startFailed, "").response.status == 500)
    }

    @Test("jsonObject returns the top-level members and refuses a non-object")
    func jsonObject() throws {
        let object = try Self.request(#"{"a":1,"b":[true,null]}"#, contentType: "application/json").jsonObject()
        #expect(object["a"] == .number("1"))
        #expect(object["b"] == [true, nil])
        #expect(throws: HTTPError(.malformedJSON, "")) {
            try Self.request("[1]", contentType: "application/json").jsonObject()
        }
    }

    @Test("formParameters decodes '+' as space and percent-escapes")
    func form() throws {
        let form = try Self.request(
            "grant_type=refresh_token&a=x+y%2Bz%C3%A9&flag&&empty=",
            contentType: "application/x-www-form-urlencoded; charset=UTF-8"
        )
        .formParameters()
        #expect(form == ["grant_type": "refresh_token", "a": "x y+zé", "flag": "", "empty": ""])
    }

    @Test("formParameters refuses a repeated name (RFC 6749 §3.1)")
    func formDuplicate() {
        #expect(throws: HTTPError(.malformedForm, "")) {
            try Self.request("a=1&b=2&a=3", contentType: "application/x-www-form-urlencoded").formParameters()
        }
    }

    @Test("formParameters refuses broken escapes, invalid UTF-8 and the wrong Content-Type")
    func formMalformed() {
        for body in ["a=%2", "a=%zz", "a=%FF", "%C3=1"] {
            #expect(throws: HTTPError(.malformedForm, ""), "\(body)") {
                try Self.request(body, contentType: "application/x-www-form-urlencoded").formParameters()
            }
        }
        #expect(throws: HTTPError(.unsupportedMediaType, "")) {
            try Self.request("a=1", contentType: "application/json").formParameters()
        }
    }

    @Test("bodyParameters reads JSON or form by Content-Type, and nothing else")
    func bodyParameters() throws {
        let json = try Self.request(#"{"grant_type":"x","n":2}"#, contentType: "application/json").bodyParameters()
        #expect(json == ["grant_type": "x", "n": 2])
        let form = try Self.request("grant_type=x&n=2", contentType: "application/x-www-form-urlencoded")
            .bodyParameters()
        #expect(form == ["grant_type": "x", "n": "2"])
        #expect(throws: HTTPError(.unsupportedMediaType, "")) {
            try Self.request("grant_type=x", contentType: "text/plain").bodyParameters()
        }
        #expect(throws: HTTPError(.unsupportedMediaType, "")) {
            try Self.request("grant_type=x", contentType: nil).bodyParameters()
        }
    }

    @Test("FormURLEncoding.encode round-trips through formParameters")
    func formEncode() throws {
        let encoded = FormURLEncoding.encode([("a b", "c&d=é"), ("x", "*-._~")])
        #expect(encoded == "a+b=c%26d%3D%C3%A9&x=*-._%7E")
        let decoded = try Self.request(encoded, contentType: "application/x-www-form-urlencoded").formParameters()
        #expect(decoded == ["a b": "c&d=é", "x": "*-._~"])
    }

    @Test("the common JSON Content-Type spellings parse as the general parser reads their other spellings")
    func mediaTypeFastPath() {
        #expect(MediaType("application/json") == MediaType(" Application/JSON"))
        #expect(MediaType("application/json")?.charset == nil)
        #expect(MediaType("application/json; charset=utf-8") == MediaType("application/json;charset=\"UTF-8\""))
        #expect(MediaType("application/json; charset=utf-8")?.isUTF8OrUnspecified == true)
    }
}
