//===- ParserGuard.cpp - Input MLIR's parser is known to crash on ---------===//
//
// A small lexer of MLIR's textual syntax: enough to tell identifiers,
// symbols, strings and comments apart, so that a string or a comment that
// mentions `array<index` is not mistaken for the construct.
//
//===----------------------------------------------------------------------===//

#include "hk/Support/ParserGuard.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace hk;

namespace {
struct Token {
  enum Kind { BareId, SigilId, String, Number, Punct } kind;
  llvm::StringRef text;
  size_t offset;
};
} // namespace

static bool isIdChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
}

/// Skips a string literal starting at `i` (the opening quote): up to the
/// closing quote, honouring backslash escapes, or to the end of the line
/// (an unterminated string is the parser's error to report).
static size_t skipString(llvm::StringRef text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\')
      ++i;
    else if (text[i] == '"')
      return i + 1;
    else if (text[i] == '\n')
      return i;
  }
  return text.size();
}

static std::vector<Token> lex(llvm::StringRef text) {
  std::vector<Token> tokens;
  size_t i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    size_t start = i;
    if (llvm::isSpace(c)) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        i = n;
      continue;
    }
    Token::Kind kind;
    if (c == '"') {
      i = skipString(text, i);
      kind = Token::String;
    } else if (c == '%' || c == '@' || c == '^' || c == '#' || c == '!') {
      ++i;
      if (i < n && text[i] == '"')
        i = skipString(text, i);
      else
        while (i < n && (isIdChar(text[i]) || text[i] == '-'))
          ++i;
      kind = Token::SigilId;
    } else if (llvm::isAlpha(c) || c == '_') {
      while (i < n && isIdChar(text[i]))
        ++i;
      kind = Token::BareId;
    } else if (llvm::isDigit(c)) {
      while (i < n && (llvm::isAlnum(text[i]) || text[i] == '.'))
        ++i;
      kind = Token::Number;
    } else {
      ++i;
      kind = Token::Punct;
    }
    tokens.push_back({kind, text.slice(start, i), start});
  }
  return tokens;
}

std::optional<KnownParserCrash>
hk::findKnownParserCrash(llvm::StringRef source) {
  // MLIR bytecode starts with "ML\xEFR"; it is not text.
  if (source.starts_with("ML\xEFR"))
    return std::nullopt;
  std::vector<Token> tokens = lex(source);
  auto at = [&](size_t i) -> const Token * {
    return i < tokens.size() ? &tokens[i] : nullptr;
  };

  // Type aliases whose whole definition is one token: `!a = index`,
  // `!b = !a`.
  llvm::StringMap<llvm::StringRef> aliases;
  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    const Token &name = tokens[i], &eq = tokens[i + 1], &type = tokens[i + 2];
    if (name.kind != Token::SigilId || !name.text.starts_with("!") ||
        eq.kind != Token::Punct || eq.text != "=")
      continue;
    const Token *after = at(i + 3);
    if (after && after->kind == Token::Punct && after->text == "<")
      continue;
    if ((type.kind == Token::BareId && type.text == "index") ||
        (type.kind == Token::SigilId && type.text.starts_with("!")))
      aliases[name.text] = type.text;
  }
  auto isIndex = [&](const Token &type) {
    if (type.kind == Token::BareId)
      return type.text == "index";
    if (type.kind != Token::SigilId)
      return false;
    llvm::StringRef name = type.text;
    // Follow the chain of aliases (a cycle is the parser's error).
    for (unsigned hops = 0; hops < 64; ++hops) {
      auto it = aliases.find(name);
      if (it == aliases.end())
        return false;
      if (it->second == "index")
        return true;
      name = it->second;
    }
    return false;
  };

  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    const Token &keyword = tokens[i], &open = tokens[i + 1],
                &type = tokens[i + 2];
    if (keyword.kind == Token::BareId && keyword.text == "array" &&
        open.kind == Token::Punct && open.text == "<" && isIndex(type))
      return KnownParserCrash{
          type.offset,
          "dense array of 'index' elements" +
              (type.text == "index"
                   ? std::string()
                   : " (type alias '" + type.text.str() + "')") +
              ": index has no fixed bit width, use i32 or i64 (rejected "
              "before MLIR's parser, which crashes on it)"};
  }
  return std::nullopt;
}

bool hk::reportKnownParserCrash(const llvm::SourceMgr &sourceMgr,
                                llvm::raw_ostream &os) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::optional<KnownParserCrash> crash =
      findKnownParserCrash(buffer->getBuffer());
  if (!crash)
    return false;
  sourceMgr.PrintMessage(
      os, llvm::SMLoc::getFromPointer(buffer->getBufferStart() + crash->offset),
      llvm::SourceMgr::DK_Error, crash->message);
  return true;
}
