import GQLCore

@main
struct GQLC {
    static func main() {
        print("gqlc: not built yet")
    }
}
