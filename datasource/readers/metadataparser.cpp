// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/metadataparser.h"

#include "datasource/readers/textnumber.h"

#include <cstdint>
#include <memory>

namespace parallax {

namespace {

struct Element {
    std::string name;
    std::string text;
    std::vector<std::unique_ptr<Element>> children;

    const Element* child(std::string_view n) const
    {
        for (const auto& c : children)
            if (c->name == n)
                return c.get();
        return nullptr;
    }
};

class Parser {
public:
    explicit Parser(std::string_view s)
        : m_s(s)
    {
    }

    std::unique_ptr<Element> parseDocument()
    {
        skipSpace();
        auto root = parseElement(0);
        return root;
    }

    std::string error;
    std::size_t errorOffset = 0;

private:
    void fail(const std::string& message)
    {
        if (error.empty()) {
            error = message;
            errorOffset = m_pos;
        }
    }

    void skipSpace()
    {
        while (
            m_pos < m_s.size() && (m_s[m_pos] == ' ' || m_s[m_pos] == '\t' || m_s[m_pos] == '\n' || m_s[m_pos] == '\r'))
            ++m_pos;
    }

    bool startsWith(std::string_view p) const { return m_s.substr(m_pos, p.size()) == p; }

    static std::string stripPrefix(std::string_view name)
    {
        const auto colon = name.find(':');
        return std::string(colon == std::string_view::npos ? name : name.substr(colon + 1));
    }

    void decodeText(std::string_view raw, std::string& out)
    {
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] != '&') {
                out.push_back(raw[i]);
                continue;
            }
            const auto semi = raw.find(';', i);
            if (semi == std::string_view::npos || semi - i > 12) {
                out.push_back('&'); // tolerate a raw '&'
                continue;
            }
            const std::string_view ent = raw.substr(i + 1, semi - i - 1);
            if (ent == "amp")
                out.push_back('&');
            else if (ent == "lt")
                out.push_back('<');
            else if (ent == "gt")
                out.push_back('>');
            else if (ent == "quot")
                out.push_back('"');
            else if (ent == "apos")
                out.push_back('\'');
            else if (!ent.empty() && ent[0] == '#') {
                std::uint32_t cp = 0;
                bool okNum = ent.size() > 1;
                const bool hex = ent.size() > 1 && (ent[1] == 'x' || ent[1] == 'X');
                for (std::size_t k = hex ? 2 : 1; k < ent.size() && okNum; ++k) {
                    const char c = ent[k];
                    int d = -1;
                    if (c >= '0' && c <= '9')
                        d = c - '0';
                    else if (hex && c >= 'a' && c <= 'f')
                        d = c - 'a' + 10;
                    else if (hex && c >= 'A' && c <= 'F')
                        d = c - 'A' + 10;
                    if (d < 0 || cp > 0x10FFFF)
                        okNum = false;
                    else
                        cp = cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(d);
                }
                if (okNum)
                    textnumber::appendUtf8(out, cp);
                else
                    out.append(raw.substr(i, semi - i + 1));
            } else {
                out.append(raw.substr(i, semi - i + 1));
            }
            i = semi;
        }
    }

    std::unique_ptr<Element> parseElement(int depth)
    {
        if (depth > 64) {
            fail("metadata nested deeper than 64 levels");
            return nullptr;
        }
        if (m_pos >= m_s.size() || m_s[m_pos] != '<') {
            fail("expected '<' to open an element");
            return nullptr;
        }
        const auto close = m_s.find('>', m_pos);
        if (close == std::string_view::npos) {
            fail("unterminated tag");
            return nullptr;
        }
        std::string_view tag = m_s.substr(m_pos + 1, close - m_pos - 1);
        m_pos = close + 1;
        bool selfClosing = false;
        if (!tag.empty() && tag.back() == '/') {
            selfClosing = true;
            tag.remove_suffix(1);
        }
        const auto space = tag.find_first_of(" \t");
        auto element = std::make_unique<Element>();
        element->name = stripPrefix(tag.substr(0, space));
        if (selfClosing)
            return element;
        while (m_pos < m_s.size()) {
            if (startsWith("<![CDATA[")) {
                const auto end = m_s.find("]]>", m_pos + 9);
                if (end == std::string_view::npos) {
                    fail("unterminated CDATA section");
                    return element;
                }
                element->text.append(m_s.substr(m_pos + 9, end - m_pos - 9));
                m_pos = end + 3;
            } else if (startsWith("</")) {
                const auto end = m_s.find('>', m_pos);
                if (end == std::string_view::npos) {
                    fail("unterminated closing tag");
                    return element;
                }
                const std::string name = stripPrefix(m_s.substr(m_pos + 2, end - m_pos - 2));
                if (name != element->name) {
                    fail("closing tag </" + name + "> does not match <" + element->name + ">");
                    return element;
                }
                m_pos = end + 1;
                return element;
            } else if (startsWith("<?") || startsWith("<!--")) {
                const auto end = m_s.find('>', m_pos);
                m_pos = end == std::string_view::npos ? m_s.size() : end + 1;
            } else if (m_s[m_pos] == '<') {
                auto child = parseElement(depth + 1);
                if (!child)
                    return element;
                element->children.push_back(std::move(child));
                if (!error.empty())
                    return element;
            } else {
                const auto next = m_s.find('<', m_pos);
                const auto end = next == std::string_view::npos ? m_s.size() : next;
                decodeText(m_s.substr(m_pos, end - m_pos), element->text);
                m_pos = end;
            }
        }
        fail("missing closing tag </" + element->name + ">");
        return element;
    }

    std::string_view m_s;
    std::size_t m_pos = 0;
};

std::string trimmed(const std::string& s)
{
    std::size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\n' || s[b] == '\t' || s[b] == '\r'))
        ++b;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\n' || s[e - 1] == '\t' || s[e - 1] == '\r'))
        --e;
    return s.substr(b, e - b);
}

void collect(
    const Element& attribute, const std::string& prefix, bool parentContext, std::vector<MetadataAttribute>& out)
{
    const Element* nameEl = attribute.child("name");
    if (!nameEl)
        return;
    const std::string key = prefix.empty() ? nameEl->text : prefix + "/" + nameEl->text;
    const bool context = parentContext || attribute.child("timer_context") != nullptr;
    const Element* valueEl = attribute.child("value");
    if (!valueEl) {
        out.push_back({ key, std::string(), context });
        return;
    }
    bool nested = false;
    std::string array;
    bool isArray = false;
    for (const auto& c : valueEl->children) {
        if (c->name == "attribute") {
            nested = true;
            collect(*c, key, context, out);
        } else if (c->name == "array_element") {
            array += (isArray ? ", " : "") + c->text;
            isArray = true;
        }
    }
    if (isArray)
        out.push_back({ key, "[" + array + "]", context });
    else if (!nested)
        out.push_back({ key, valueEl->text, context });
    (void)trimmed;
}

} // namespace

MetadataParseResult parseTauMetadata(std::string_view xml)
{
    MetadataParseResult result;
    Parser parser(xml);
    auto root = parser.parseDocument();
    result.error = parser.error;
    result.errorOffset = parser.errorOffset;
    if (!root)
        return result;
    for (const auto& c : root->children)
        if (c->name == "attribute")
            collect(*c, std::string(), false, result.attributes);
    return result;
}

std::string escapeMetadataText(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        case '\n':
            out += "&#xa;";
            break;
        case '\r':
            out += "&#xd;";
            break;
        default:
            out.push_back(c);
        }
    }
    return out;
}

} // namespace parallax
