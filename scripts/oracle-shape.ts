// The intended differences between the reference core's answers and a rebuilt core's, as one function.

/**
 * The answer a candidate core should give, from what the reference answered to the same request. Until the
 * shape of `resolve` changes this is the reference's answer itself.
 *
 * @param request - The request text (bytes that are not UTF-8 are replaced, which changes no op).
 * @param status - The reference's status.
 * @param reference - The reference's answer.
 * @param candidate - The candidate's answer, for the parts the reference could not have given.
 */
export function expectedAnswer(request: string, status: number, reference: string, candidate: string): string {
  void request;
  void status;
  void candidate;
  return reference;
}
