#include "core/circuit/linear_combination.hpp"

#include "core/circuit/builder.hpp"

namespace enygma::circuit {

const Fr& Var::value() const {
  return builder->value(index);
}

Lc::Lc(const Var& v) : value_(v.value()) {
  if (v.builder->records_shape()) terms_.push_back({v.index, Fr::one()});
}

Lc Lc::constant(const Fr& c) {
  Lc r;
  r.value_ = c;
  r.constant_ = c;
  return r;
}

Lc& Lc::add_constant(const Fr& c) {
  value_ += c;
  constant_ += c;
  return *this;
}

Lc& Lc::add_var(const Var& v, const Fr& k) {
  value_ += k * v.value();
  if (!v.builder->records_shape() || k.is_zero()) return *this;
  if (terms_.empty() || terms_.back().wire < v.index) {
    terms_.push_back({v.index, k});  // the common case: wires are used in allocation order
    return *this;
  }
  Lc single;  // value zero: the value was added above
  single.terms_.push_back({v.index, k});
  return add_scaled(single, Fr::one());
}

Lc& Lc::add_scaled(const Lc& o, const Fr& k) {
  // +-1 (sums and differences) and var-only combinations are the common cases: no product.
  static constexpr Fr kMinusOne =
      Fr::constant("21888242871839275222246405745257275088548364400416034343698204186575808495616");
  if (k == Fr::one()) {
    value_ += o.value_;
    constant_ += o.constant_;
  } else if (k == kMinusOne) {
    value_ -= o.value_;
    constant_ -= o.constant_;
  } else {
    value_ += k * o.value_;
    if (!o.constant_.is_zero()) constant_ += k * o.constant_;
  }
  if (o.terms_.empty() || k.is_zero()) return *this;
  if (terms_.empty() || terms_.back().wire < o.terms_.front().wire) {
    terms_.reserve(terms_.size() + o.terms_.size());
    for (const auto& t : o.terms_) terms_.push_back({t.wire, k * t.coeff});
    return *this;
  }
  // Sorted merge; coefficients that cancel are dropped.
  std::vector<R1csTerm> merged;
  merged.reserve(terms_.size() + o.terms_.size());
  size_t i = 0, j = 0;
  while (i < terms_.size() || j < o.terms_.size()) {
    if (j == o.terms_.size() || (i < terms_.size() && terms_[i].wire < o.terms_[j].wire)) {
      merged.push_back(terms_[i++]);
    } else if (i == terms_.size() || o.terms_[j].wire < terms_[i].wire) {
      merged.push_back({o.terms_[j].wire, k * o.terms_[j].coeff});
      ++j;
    } else {
      Fr c = terms_[i].coeff + k * o.terms_[j].coeff;
      if (!c.is_zero()) merged.push_back({terms_[i].wire, c});
      ++i;
      ++j;
    }
  }
  terms_ = std::move(merged);
  return *this;
}

Lc& Lc::operator+=(const Lc& o) {
  return add_scaled(o, Fr::one());
}
Lc& Lc::operator-=(const Lc& o) {
  return add_scaled(o, -Fr::one());
}

Lc& Lc::operator*=(const Fr& k) {
  value_ *= k;
  constant_ *= k;
  if (k.is_zero()) {
    terms_.clear();
    return *this;
  }
  for (auto& t : terms_) t.coeff *= k;
  return *this;
}

void Lc::append_to_row(std::vector<R1csTerm>& row) const {
  if (!constant_.is_zero()) row.push_back({0, constant_});
  row.insert(row.end(), terms_.begin(), terms_.end());
}

}  // namespace enygma::circuit
