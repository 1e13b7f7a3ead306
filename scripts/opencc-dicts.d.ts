/** opencc-js ships its dictionaries as plain modules without types: each is "from to|from to|…". */
declare module "opencc-js/dict/*" {
  const dict: string;
  export default dict;
}
