// A header's class template whose base is specialised, through a template
// template argument, with a lambda of the .cu (Thrust's
// specialize_plan_impl_match over an agent's PtxPlan).
template <class T> struct Agent {
  template <class SM> struct Plan {
    T t;
  };
};
template <template <class> class P, class SM> struct Match : P<SM> {};
template <class T> int run(T t) {
  Match<Agent<T>::template Plan, int> m{{t}};
  return sizeof(m);
}
