/// Text as one POSIX shell word, for a command a message suggests running (`check with: … --key 'sku=A 1'`).
public enum ShellWord {
    /// `value` as it is when it is plainly safe, else in single quotes (a quote inside becomes `'\''`).
    public static func quoted(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9": return true
            default: return "-_.=:/@+,%".unicodeScalars.contains(scalar)
            }
        }
        guard !plain else { return value }
        var quoted = "'"
        for character in value { quoted += character == "'" ? "'\\''" : String(character) }
        return quoted + "'"
    }
}
