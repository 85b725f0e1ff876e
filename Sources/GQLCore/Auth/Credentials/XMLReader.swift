/// A small XML reader for AWS query-protocol answers (STS): elements, their text and children.
///
/// It skips the prolog, comments and processing instructions, ignores attributes and namespaces
/// prefixes, and decodes the five predefined entities and character references. Enough for
/// `<AssumeRoleResponse>` and `<ErrorResponse>`; not a general XML parser (no DTDs, no CDATA nesting).
public struct XMLElement: Sendable, Equatable {
    /// The local name (after any `prefix:`).
    public var name: String
    /// The element's own text, entities decoded (text between child elements joined).
    public var text: String
    /// Child elements in order.
    public var children: [XMLElement]

    /// The first child named `name`.
    public func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }

    /// The first element named `name` at any depth below, depth first.
    public func descendant(_ name: String) -> XMLElement? {
        for child in children {
            if child.name == name { return child }
            if let found = child.descendant(name) { return found }
        }
        return nil
    }

    /// The trimmed text of the first descendant named `name`.
    public func text(of name: String) -> String? { descendant(name)?.text.trimmingWhitespace }

    /// Parses a document; returns its root element, or nil when the text is not such a document.
    public static func parse(_ text: String) -> XMLElement? {
        var reader = XMLScanner(bytes: Array(text.utf8))
        return reader.document()
    }
}

private struct XMLScanner {
    let bytes: [UInt8]
    var index = 0

    mutating func document() -> XMLElement? {
        var stack: [XMLElement] = []
        var root: XMLElement?
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                let start = index
                while index < bytes.count && bytes[index] != UInt8(ascii: "<") { index += 1 }
                if !stack.isEmpty { stack[stack.count - 1].text += Self.decode(bytes[start..<index]) }
                continue
            }
            if starts(with: "<?") { guard skip(past: "?>") else { return nil }; continue }
            if starts(with: "<!--") { guard skip(past: "-->") else { return nil }; continue }
            if starts(with: "<![CDATA[") {
                index += 9
                let start = index
                guard skip(past: "]]>") else { return nil }
                if !stack.isEmpty { stack[stack.count - 1].text += String(decoding: bytes[start..<(index - 3)], as: UTF8.self) }
                continue
            }
            if starts(with: "<!") { guard skip(past: ">") else { return nil }; continue }
            let tagStart = index + 1
            guard skip(past: ">") else { return nil }
            var tag = bytes[tagStart..<(index - 1)]
            if tag.first == UInt8(ascii: "/") {
                let name = Self.localName(tag.dropFirst())
                guard let element = stack.popLast(), element.name == name else { return nil }
                if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
                continue
            }
            let selfClosing = tag.last == UInt8(ascii: "/")
            if selfClosing { tag = tag.dropLast() }
            let element = XMLElement(name: Self.localName(tag), text: "", children: [])
            if selfClosing {
                if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
            } else {
                stack.append(element)
            }
        }
        return stack.isEmpty ? root : nil
    }

    private func starts(with prefix: String) -> Bool {
        let utf8 = Array(prefix.utf8)
        return index + utf8.count <= bytes.count && Array(bytes[index..<(index + utf8.count)]) == utf8
    }

    /// Moves past the next `terminator`; false when there is none.
    private mutating func skip(past terminator: String) -> Bool {
        let utf8 = Array(terminator.utf8)
        while index + utf8.count <= bytes.count {
            if Array(bytes[index..<(index + utf8.count)]) == utf8 {
                index += utf8.count
                return true
            }
            index += 1
        }
        return false
    }

    /// The tag's name without attributes or a namespace prefix.
    private static func localName(_ tag: ArraySlice<UInt8>) -> String {
        let name = tag.prefix { ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains($0) }
        let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[name.index(after: $0)...] } ?? name
        return String(decoding: local, as: UTF8.self)
    }

    /// Text with `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and `&#N;` / `&#xN;` decoded.
    static func decode(_ raw: ArraySlice<UInt8>) -> String {
        let text = String(decoding: raw, as: UTF8.self)
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                var scalar: Unicode.Scalar?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
                }
                result += scalar.map { String(Character($0)) } ?? "&\(entity);"
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
