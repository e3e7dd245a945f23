// @ts-nocheck
/*
 * GENERATED from src/conf/lint-schema.ts by ajv standalone (test/conf/lint-validator-gen.ts).
 * Do not edit: change the schema, then run
 *   LIBCNI_REGENERATE=1 npx vitest run test/conf/lint-validator.test.ts
 * It imports nothing: the package ships it instead of ajv. Biome skips it (biome.json).
 */
"use strict";
export const validateConflist = validate10;
const schema11 = {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","x-message":"a network configuration list must be a JSON object","allOf":[{"required":["name"],"x-message":"missing \"name\": the network name"},{"properties":{"cniVersion":true,"cniVersions":true,"name":true,"disableCheck":true,"disableGC":true,"loadOnlyInlinedPlugins":true,"plugins":true},"additionalProperties":false,"x-severity":"warning","x-message":"unknown top-level key (not in the CNI spec)"},{"properties":{"cniVersion":{"type":"string","x-message":"cniVersion must be a string"},"cniVersions":{"type":"array","items":{"type":"string","x-message":"must be a string"},"x-message":"cniVersions must be a list of strings"},"name":{"allOf":[{"type":"string","x-message":"name must be a string"},{"pattern":"^[a-zA-Z0-9][a-zA-Z0-9_.-]*$","x-message":"name must start with a letter or digit, then letters, digits, _ . or - (spec)"}]},"disableCheck":{"allOf":[{"anyOf":[{"type":"boolean"},{"type":"string","pattern":"^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"}],"x-message":"disableCheck must be a boolean"},{"not":{"type":"string","pattern":"^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"},"x-severity":"warning","x-message":"disableCheck is a string: the spec says a boolean (Go libcni reads \"true\"/\"false\" in any case, other runtimes may not)"}]},"disableGC":{"allOf":[{"anyOf":[{"type":"boolean"},{"type":"string","pattern":"^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"}],"x-message":"disableGC must be a boolean"},{"not":{"type":"string","pattern":"^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"},"x-severity":"warning","x-message":"disableGC is a string: the spec says a boolean (Go libcni reads \"true\"/\"false\" in any case, other runtimes may not)"}]},"loadOnlyInlinedPlugins":{"allOf":[{"anyOf":[{"type":"boolean"},{"type":"string","pattern":"^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"}],"x-message":"loadOnlyInlinedPlugins must be a boolean"},{"not":{"type":"string","pattern":"^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"},"x-severity":"warning","x-message":"loadOnlyInlinedPlugins is a string: the spec says a boolean (Go libcni reads \"true\"/\"false\" in any case, other runtimes may not)"}]},"plugins":{"allOf":[{"type":"array","x-message":"plugins must be a list of plugin objects"},{"minItems":1,"x-message":"no plugins in list"},{"items":{"type":"object","x-message":"a plugin must be an object","allOf":[{"required":["type"],"x-message":"missing \"type\": every plugin names its executable"},{"properties":{"type":{"allOf":[{"type":"string","x-message":"type must be a string"},{"not":{"const":""},"x-message":"type is empty"},{"pattern":"^(?!\\.\\.?$)[^/\\\\\\u0000]+$","x-message":"type must be a file name (no / or \\, not . or ..)"}]},"name":{"not":{},"x-severity":"warning","x-message":"a plugin's name is replaced by the list's name at run time"},"cniVersion":{"not":{},"x-severity":"warning","x-message":"a plugin's cniVersion is replaced by the list's version at run time"},"capabilities":{"allOf":[{"type":["object","null"],"additionalProperties":{"type":["boolean","null"],"x-message":"a capability must be true or false"},"x-message":"capabilities must be an object of booleans"},{"properties":{"portMappings":true,"ipRanges":true,"bandwidth":true,"dns":true,"ips":true,"mac":true,"infinibandGUID":true,"deviceID":true,"aliases":true,"cgroupPath":true,"io.kubernetes.cri.pod-annotations":true},"additionalProperties":false,"x-severity":"warning","x-message":"unknown capability (not in the CNI conventions)"}]},"ipam":{"type":["object","null"],"x-message":"ipam must be an object","properties":{"type":{"allOf":[{"type":"string","x-message":"ipam type must be a string"},{"pattern":"^(?!\\.\\.?$)[^/\\\\\\u0000]+$","x-message":"ipam type must be a file name (no / or \\, not . or ..)"}]}}},"dns":{"type":["object","null"],"x-message":"dns must be an object","properties":{"nameservers":{"type":"array","items":{"type":"string","x-message":"must be a list of strings"},"x-message":"must be a list of strings"},"domain":{"type":"string","x-message":"must be a string"},"search":{"type":"array","items":{"type":"string","x-message":"must be a list of strings"},"x-message":"must be a list of strings"},"options":{"type":"array","items":{"type":"string","x-message":"must be a list of strings"},"x-message":"must be a list of strings"}}},"runtimeConfig":{"type":"object","x-message":"runtimeConfig must be an object","properties":{"portMappings":{"type":"array","x-message":"portMappings must be a list of port mappings","items":{"type":"object","x-message":"a port mapping must be an object","allOf":[{"required":["hostPort","containerPort"],"x-message":"a port mapping needs hostPort and containerPort"}],"properties":{"hostPort":{"type":"integer","minimum":1,"maximum":65535,"x-message":"must be a port number (1-65535)"},"containerPort":{"type":"integer","minimum":1,"maximum":65535,"x-message":"must be a port number (1-65535)"},"protocol":{"type":"string","x-message":"must be a string (tcp, udp or sctp)"},"hostIP":{"type":"string","x-message":"must be a string (an IP address)"}}}},"ipRanges":{"type":"array","x-message":"ipRanges must be a list of lists of ranges (host-local's ranges)","items":{"type":"array","x-message":"must be a list of ranges","items":{"type":"object","x-message":"a range must be an object","allOf":[{"required":["subnet"],"x-message":"a range needs a subnet"}],"properties":{"subnet":{"type":"string","x-message":"must be a string (a CIDR)"},"rangeStart":{"type":"string","x-message":"must be a string (an IP address)"},"rangeEnd":{"type":"string","x-message":"must be a string (an IP address)"},"gateway":{"type":"string","x-message":"must be a string (an IP address)"}}}}},"bandwidth":{"type":"object","x-message":"bandwidth must be an object of rates and bursts","properties":{"ingressRate":{"type":"integer","minimum":0,"x-message":"must be a non-negative integer (bits)"},"ingressBurst":{"type":"integer","minimum":0,"x-message":"must be a non-negative integer (bits)"},"egressRate":{"type":"integer","minimum":0,"x-message":"must be a non-negative integer (bits)"},"egressBurst":{"type":"integer","minimum":0,"x-message":"must be a non-negative integer (bits)"}}},"dns":{"type":"object","x-message":"dns must be an object of servers, searches and options","properties":{"servers":{"type":"array","items":{"type":"string","x-message":"must be a list of strings"},"x-message":"must be a list of strings"},"searches":{"type":"array","items":{"type":"string","x-message":"must be a list of strings"},"x-message":"must be a list of strings"},"options":{"type":"array","items":{"type":"string","x-message":"must be a list of strings"},"x-message":"must be a list of strings"}}},"ips":{"type":"array","items":{"type":"string","x-message":"ips must be a list of strings (<ip>[/<prefix>])"},"x-message":"ips must be a list of strings (<ip>[/<prefix>])"},"mac":{"type":"string","x-message":"mac must be a string (a MAC address)"},"infinibandGUID":{"type":"string","x-message":"infinibandGUID must be a string (a GUID)"},"deviceID":{"type":"string","x-message":"deviceID must be a string"},"aliases":{"type":"array","items":{"type":"string","x-message":"aliases must be a list of strings"},"x-message":"aliases must be a list of strings"},"cgroupPath":{"type":"string","x-message":"cgroupPath must be a string"},"io.kubernetes.cri.pod-annotations":{"type":"object","additionalProperties":{"type":"string","x-message":"io.kubernetes.cri.pod-annotations must be an object of strings"},"x-message":"io.kubernetes.cri.pod-annotations must be an object of strings"}}},"prevResult":{"type":["object","null"],"x-message":"prevResult must be an object"}}},{"properties":{"runtimeConfig":{"allOf":[{"not":{},"x-severity":"warning","x-message":"runtimeConfig is reserved: the runtime writes it from the capabilities and replaces this one"},{"properties":{"portMappings":true,"ipRanges":true,"bandwidth":true,"dns":true,"ips":true,"mac":true,"infinibandGUID":true,"deviceID":true,"aliases":true,"cgroupPath":true,"io.kubernetes.cri.pod-annotations":true},"additionalProperties":false,"x-severity":"warning","x-message":"unknown capability argument (not in the CNI conventions)"}]},"args":{"not":{},"x-severity":"warning","x-message":"args is reserved: the runtime writes it at execution time"},"prevResult":{"not":{},"x-severity":"warning","x-message":"prevResult is set by the runtime from the previous plugin's result"}},"patternProperties":{"^cni\\.dev/":{"not":{},"x-severity":"warning","x-message":"keys starting with cni.dev/ are reserved for the runtime"}}}]}}]}}}]};
const pattern0 = new RegExp("^[a-zA-Z0-9][a-zA-Z0-9_.-]*$", "u");
const pattern1 = new RegExp("^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$", "u");
const pattern7 = new RegExp("^(?!\\.\\.?$)[^/\\\\\\u0000]+$", "u");
const pattern9 = new RegExp("^cni\\.dev/", "u");
const func2 = Object.prototype.hasOwnProperty;

function validate10(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(!(data && typeof data == "object" && !Array.isArray(data))){
const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err1 = {instancePath,schemaPath:"#/allOf/0/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(((((((key0 === "cniVersion") || (key0 === "cniVersions")) || (key0 === "name")) || (key0 === "disableCheck")) || (key0 === "disableGC")) || (key0 === "loadOnlyInlinedPlugins")) || (key0 === "plugins"))){
const err2 = {instancePath,schemaPath:"#/allOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.cniVersion !== undefined){
if(typeof data.cniVersion !== "string"){
const err3 = {instancePath:instancePath+"/cniVersion",schemaPath:"#/allOf/2/properties/cniVersion/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.cniVersions !== undefined){
let data1 = data.cniVersions;
if(Array.isArray(data1)){
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
if(typeof data1[i0] !== "string"){
const err4 = {instancePath:instancePath+"/cniVersions/" + i0,schemaPath:"#/allOf/2/properties/cniVersions/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath:instancePath+"/cniVersions",schemaPath:"#/allOf/2/properties/cniVersions/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.name !== undefined){
let data3 = data.name;
if(typeof data3 !== "string"){
const err6 = {instancePath:instancePath+"/name",schemaPath:"#/allOf/2/properties/name/allOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(typeof data3 === "string"){
if(!pattern0.test(data3)){
const err7 = {instancePath:instancePath+"/name",schemaPath:"#/allOf/2/properties/name/allOf/1/pattern",keyword:"pattern",params:{pattern: "^[a-zA-Z0-9][a-zA-Z0-9_.-]*$"},message:"must match pattern \""+"^[a-zA-Z0-9][a-zA-Z0-9_.-]*$"+"\""};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
if(data.disableCheck !== undefined){
let data4 = data.disableCheck;
const _errs17 = errors;
let valid6 = false;
const _errs18 = errors;
if(typeof data4 !== "boolean"){
const err8 = {instancePath:instancePath+"/disableCheck",schemaPath:"#/allOf/2/properties/disableCheck/allOf/0/anyOf/0/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var _valid0 = _errs18 === errors;
valid6 = valid6 || _valid0;
if(!valid6){
const _errs20 = errors;
if(typeof data4 === "string"){
if(!pattern1.test(data4)){
const err9 = {instancePath:instancePath+"/disableCheck",schemaPath:"#/allOf/2/properties/disableCheck/allOf/0/anyOf/1/pattern",keyword:"pattern",params:{pattern: "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"},message:"must match pattern \""+"^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/disableCheck",schemaPath:"#/allOf/2/properties/disableCheck/allOf/0/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
var _valid0 = _errs20 === errors;
valid6 = valid6 || _valid0;
}
if(!valid6){
const err11 = {instancePath:instancePath+"/disableCheck",schemaPath:"#/allOf/2/properties/disableCheck/allOf/0/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
else {
errors = _errs17;
if(vErrors !== null){
if(_errs17){
vErrors.length = _errs17;
}
else {
vErrors = null;
}
}
}
const _errs23 = errors;
const _errs24 = errors;
if(errors === _errs24){
if(typeof data4 === "string"){
if(!pattern1.test(data4)){
const err12 = {};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
var valid7 = _errs24 === errors;
if(valid7){
const err14 = {instancePath:instancePath+"/disableCheck",schemaPath:"#/allOf/2/properties/disableCheck/allOf/1/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
else {
errors = _errs23;
if(vErrors !== null){
if(_errs23){
vErrors.length = _errs23;
}
else {
vErrors = null;
}
}
}
}
if(data.disableGC !== undefined){
let data5 = data.disableGC;
const _errs28 = errors;
let valid9 = false;
const _errs29 = errors;
if(typeof data5 !== "boolean"){
const err15 = {instancePath:instancePath+"/disableGC",schemaPath:"#/allOf/2/properties/disableGC/allOf/0/anyOf/0/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var _valid1 = _errs29 === errors;
valid9 = valid9 || _valid1;
if(!valid9){
const _errs31 = errors;
if(typeof data5 === "string"){
if(!pattern1.test(data5)){
const err16 = {instancePath:instancePath+"/disableGC",schemaPath:"#/allOf/2/properties/disableGC/allOf/0/anyOf/1/pattern",keyword:"pattern",params:{pattern: "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"},message:"must match pattern \""+"^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"+"\""};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/disableGC",schemaPath:"#/allOf/2/properties/disableGC/allOf/0/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
var _valid1 = _errs31 === errors;
valid9 = valid9 || _valid1;
}
if(!valid9){
const err18 = {instancePath:instancePath+"/disableGC",schemaPath:"#/allOf/2/properties/disableGC/allOf/0/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
else {
errors = _errs28;
if(vErrors !== null){
if(_errs28){
vErrors.length = _errs28;
}
else {
vErrors = null;
}
}
}
const _errs34 = errors;
const _errs35 = errors;
if(errors === _errs35){
if(typeof data5 === "string"){
if(!pattern1.test(data5)){
const err19 = {};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
else {
const err20 = {};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
var valid10 = _errs35 === errors;
if(valid10){
const err21 = {instancePath:instancePath+"/disableGC",schemaPath:"#/allOf/2/properties/disableGC/allOf/1/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
else {
errors = _errs34;
if(vErrors !== null){
if(_errs34){
vErrors.length = _errs34;
}
else {
vErrors = null;
}
}
}
}
if(data.loadOnlyInlinedPlugins !== undefined){
let data6 = data.loadOnlyInlinedPlugins;
const _errs39 = errors;
let valid12 = false;
const _errs40 = errors;
if(typeof data6 !== "boolean"){
const err22 = {instancePath:instancePath+"/loadOnlyInlinedPlugins",schemaPath:"#/allOf/2/properties/loadOnlyInlinedPlugins/allOf/0/anyOf/0/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
var _valid2 = _errs40 === errors;
valid12 = valid12 || _valid2;
if(!valid12){
const _errs42 = errors;
if(typeof data6 === "string"){
if(!pattern1.test(data6)){
const err23 = {instancePath:instancePath+"/loadOnlyInlinedPlugins",schemaPath:"#/allOf/2/properties/loadOnlyInlinedPlugins/allOf/0/anyOf/1/pattern",keyword:"pattern",params:{pattern: "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"},message:"must match pattern \""+"^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"+"\""};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
else {
const err24 = {instancePath:instancePath+"/loadOnlyInlinedPlugins",schemaPath:"#/allOf/2/properties/loadOnlyInlinedPlugins/allOf/0/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
var _valid2 = _errs42 === errors;
valid12 = valid12 || _valid2;
}
if(!valid12){
const err25 = {instancePath:instancePath+"/loadOnlyInlinedPlugins",schemaPath:"#/allOf/2/properties/loadOnlyInlinedPlugins/allOf/0/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
else {
errors = _errs39;
if(vErrors !== null){
if(_errs39){
vErrors.length = _errs39;
}
else {
vErrors = null;
}
}
}
const _errs45 = errors;
const _errs46 = errors;
if(errors === _errs46){
if(typeof data6 === "string"){
if(!pattern1.test(data6)){
const err26 = {};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
else {
const err27 = {};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
var valid13 = _errs46 === errors;
if(valid13){
const err28 = {instancePath:instancePath+"/loadOnlyInlinedPlugins",schemaPath:"#/allOf/2/properties/loadOnlyInlinedPlugins/allOf/1/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
else {
errors = _errs45;
if(vErrors !== null){
if(_errs45){
vErrors.length = _errs45;
}
else {
vErrors = null;
}
}
}
}
if(data.plugins !== undefined){
let data7 = data.plugins;
if(!(Array.isArray(data7))){
const err29 = {instancePath:instancePath+"/plugins",schemaPath:"#/allOf/2/properties/plugins/allOf/0/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
if(Array.isArray(data7)){
if(data7.length < 1){
const err30 = {instancePath:instancePath+"/plugins",schemaPath:"#/allOf/2/properties/plugins/allOf/1/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(Array.isArray(data7)){
const len1 = data7.length;
for(let i1=0; i1<len1; i1++){
let data8 = data7[i1];
if(!(data8 && typeof data8 == "object" && !Array.isArray(data8))){
const err31 = {instancePath:instancePath+"/plugins/" + i1,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.type === undefined){
const err32 = {instancePath:instancePath+"/plugins/" + i1,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/0/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.type !== undefined){
let data9 = data8.type;
if(typeof data9 !== "string"){
const err33 = {instancePath:instancePath+"/plugins/" + i1+"/type",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/type/allOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
const _errs61 = errors;
const _errs62 = errors;
if("" !== data9){
const err34 = {};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
var valid20 = _errs62 === errors;
if(valid20){
const err35 = {instancePath:instancePath+"/plugins/" + i1+"/type",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/type/allOf/1/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
else {
errors = _errs61;
if(vErrors !== null){
if(_errs61){
vErrors.length = _errs61;
}
else {
vErrors = null;
}
}
}
if(typeof data9 === "string"){
if(!pattern7.test(data9)){
const err36 = {instancePath:instancePath+"/plugins/" + i1+"/type",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/type/allOf/2/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[^/\\\\\\u0000]+$"},message:"must match pattern \""+"^(?!\\.\\.?$)[^/\\\\\\u0000]+$"+"\""};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
}
if(data8.name !== undefined){
const err37 = {instancePath:instancePath+"/plugins/" + i1+"/name",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/name/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
if(data8.cniVersion !== undefined){
const err38 = {instancePath:instancePath+"/plugins/" + i1+"/cniVersion",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/cniVersion/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
if(data8.capabilities !== undefined){
let data12 = data8.capabilities;
if((!(data12 && typeof data12 == "object" && !Array.isArray(data12))) && (data12 !== null)){
const err39 = {instancePath:instancePath+"/plugins/" + i1+"/capabilities",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/capabilities/allOf/0/type",keyword:"type",params:{type: schema11.allOf[2].properties.plugins.allOf[2].items.allOf[1].properties.capabilities.allOf[0].type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
for(const key1 in data12){
let data13 = data12[key1];
if((typeof data13 !== "boolean") && (data13 !== null)){
const err40 = {instancePath:instancePath+"/plugins/" + i1+"/capabilities/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/capabilities/allOf/0/additionalProperties/type",keyword:"type",params:{type: schema11.allOf[2].properties.plugins.allOf[2].items.allOf[1].properties.capabilities.allOf[0].additionalProperties.type},message:"must be boolean,null"};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
}
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
for(const key2 in data12){
if(!(func2.call(schema11.allOf[2].properties.plugins.allOf[2].items.allOf[1].properties.capabilities.allOf[1].properties, key2))){
const err41 = {instancePath:instancePath+"/plugins/" + i1+"/capabilities",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/capabilities/allOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
}
}
if(data8.ipam !== undefined){
let data14 = data8.ipam;
if((!(data14 && typeof data14 == "object" && !Array.isArray(data14))) && (data14 !== null)){
const err42 = {instancePath:instancePath+"/plugins/" + i1+"/ipam",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/ipam/type",keyword:"type",params:{type: schema11.allOf[2].properties.plugins.allOf[2].items.allOf[1].properties.ipam.type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
if(data14 && typeof data14 == "object" && !Array.isArray(data14)){
if(data14.type !== undefined){
let data15 = data14.type;
if(typeof data15 !== "string"){
const err43 = {instancePath:instancePath+"/plugins/" + i1+"/ipam/type",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/ipam/properties/type/allOf/0/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
if(typeof data15 === "string"){
if(!pattern7.test(data15)){
const err44 = {instancePath:instancePath+"/plugins/" + i1+"/ipam/type",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/ipam/properties/type/allOf/1/pattern",keyword:"pattern",params:{pattern: "^(?!\\.\\.?$)[^/\\\\\\u0000]+$"},message:"must match pattern \""+"^(?!\\.\\.?$)[^/\\\\\\u0000]+$"+"\""};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
}
}
}
if(data8.dns !== undefined){
let data16 = data8.dns;
if((!(data16 && typeof data16 == "object" && !Array.isArray(data16))) && (data16 !== null)){
const err45 = {instancePath:instancePath+"/plugins/" + i1+"/dns",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/dns/type",keyword:"type",params:{type: schema11.allOf[2].properties.plugins.allOf[2].items.allOf[1].properties.dns.type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
if(data16 && typeof data16 == "object" && !Array.isArray(data16)){
if(data16.nameservers !== undefined){
let data17 = data16.nameservers;
if(Array.isArray(data17)){
const len2 = data17.length;
for(let i2=0; i2<len2; i2++){
if(typeof data17[i2] !== "string"){
const err46 = {instancePath:instancePath+"/plugins/" + i1+"/dns/nameservers/" + i2,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/dns/properties/nameservers/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
}
else {
const err47 = {instancePath:instancePath+"/plugins/" + i1+"/dns/nameservers",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/dns/properties/nameservers/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
if(data16.domain !== undefined){
if(typeof data16.domain !== "string"){
const err48 = {instancePath:instancePath+"/plugins/" + i1+"/dns/domain",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/dns/properties/domain/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
if(data16.search !== undefined){
let data20 = data16.search;
if(Array.isArray(data20)){
const len3 = data20.length;
for(let i3=0; i3<len3; i3++){
if(typeof data20[i3] !== "string"){
const err49 = {instancePath:instancePath+"/plugins/" + i1+"/dns/search/" + i3,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/dns/properties/search/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
}
else {
const err50 = {instancePath:instancePath+"/plugins/" + i1+"/dns/search",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/dns/properties/search/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
if(data16.options !== undefined){
let data22 = data16.options;
if(Array.isArray(data22)){
const len4 = data22.length;
for(let i4=0; i4<len4; i4++){
if(typeof data22[i4] !== "string"){
const err51 = {instancePath:instancePath+"/plugins/" + i1+"/dns/options/" + i4,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/dns/properties/options/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
}
}
else {
const err52 = {instancePath:instancePath+"/plugins/" + i1+"/dns/options",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/dns/properties/options/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
}
}
}
if(data8.runtimeConfig !== undefined){
let data24 = data8.runtimeConfig;
if(data24 && typeof data24 == "object" && !Array.isArray(data24)){
if(data24.portMappings !== undefined){
let data25 = data24.portMappings;
if(Array.isArray(data25)){
const len5 = data25.length;
for(let i5=0; i5<len5; i5++){
let data26 = data25[i5];
if(data26 && typeof data26 == "object" && !Array.isArray(data26)){
if(data26.hostPort === undefined){
const err53 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings/" + i5,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/items/allOf/0/required",keyword:"required",params:{missingProperty: "hostPort"},message:"must have required property '"+"hostPort"+"'"};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
if(data26.containerPort === undefined){
const err54 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings/" + i5,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/items/allOf/0/required",keyword:"required",params:{missingProperty: "containerPort"},message:"must have required property '"+"containerPort"+"'"};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
}
if(data26 && typeof data26 == "object" && !Array.isArray(data26)){
if(data26.hostPort !== undefined){
let data27 = data26.hostPort;
if(!(((typeof data27 == "number") && (!(data27 % 1) && !isNaN(data27))) && (isFinite(data27)))){
const err55 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings/" + i5+"/hostPort",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/items/properties/hostPort/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
if((typeof data27 == "number") && (isFinite(data27))){
if(data27 > 65535 || isNaN(data27)){
const err56 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings/" + i5+"/hostPort",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/items/properties/hostPort/maximum",keyword:"maximum",params:{comparison: "<=", limit: 65535},message:"must be <= 65535"};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
if(data27 < 1 || isNaN(data27)){
const err57 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings/" + i5+"/hostPort",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/items/properties/hostPort/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
}
}
if(data26.containerPort !== undefined){
let data28 = data26.containerPort;
if(!(((typeof data28 == "number") && (!(data28 % 1) && !isNaN(data28))) && (isFinite(data28)))){
const err58 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings/" + i5+"/containerPort",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/items/properties/containerPort/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
if((typeof data28 == "number") && (isFinite(data28))){
if(data28 > 65535 || isNaN(data28)){
const err59 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings/" + i5+"/containerPort",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/items/properties/containerPort/maximum",keyword:"maximum",params:{comparison: "<=", limit: 65535},message:"must be <= 65535"};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
if(data28 < 1 || isNaN(data28)){
const err60 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings/" + i5+"/containerPort",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/items/properties/containerPort/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
}
}
if(data26.protocol !== undefined){
if(typeof data26.protocol !== "string"){
const err61 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings/" + i5+"/protocol",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/items/properties/protocol/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
}
if(data26.hostIP !== undefined){
if(typeof data26.hostIP !== "string"){
const err62 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings/" + i5+"/hostIP",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/items/properties/hostIP/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
}
}
else {
const err63 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings/" + i5,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
}
}
else {
const err64 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/portMappings",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/portMappings/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err64];
}
else {
vErrors.push(err64);
}
errors++;
}
}
if(data24.ipRanges !== undefined){
let data31 = data24.ipRanges;
if(Array.isArray(data31)){
const len6 = data31.length;
for(let i6=0; i6<len6; i6++){
let data32 = data31[i6];
if(Array.isArray(data32)){
const len7 = data32.length;
for(let i7=0; i7<len7; i7++){
let data33 = data32[i7];
if(data33 && typeof data33 == "object" && !Array.isArray(data33)){
if(data33.subnet === undefined){
const err65 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/ipRanges/" + i6+"/" + i7,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/ipRanges/items/items/allOf/0/required",keyword:"required",params:{missingProperty: "subnet"},message:"must have required property '"+"subnet"+"'"};
if(vErrors === null){
vErrors = [err65];
}
else {
vErrors.push(err65);
}
errors++;
}
}
if(data33 && typeof data33 == "object" && !Array.isArray(data33)){
if(data33.subnet !== undefined){
if(typeof data33.subnet !== "string"){
const err66 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/ipRanges/" + i6+"/" + i7+"/subnet",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/ipRanges/items/items/properties/subnet/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err66];
}
else {
vErrors.push(err66);
}
errors++;
}
}
if(data33.rangeStart !== undefined){
if(typeof data33.rangeStart !== "string"){
const err67 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/ipRanges/" + i6+"/" + i7+"/rangeStart",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/ipRanges/items/items/properties/rangeStart/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err67];
}
else {
vErrors.push(err67);
}
errors++;
}
}
if(data33.rangeEnd !== undefined){
if(typeof data33.rangeEnd !== "string"){
const err68 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/ipRanges/" + i6+"/" + i7+"/rangeEnd",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/ipRanges/items/items/properties/rangeEnd/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err68];
}
else {
vErrors.push(err68);
}
errors++;
}
}
if(data33.gateway !== undefined){
if(typeof data33.gateway !== "string"){
const err69 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/ipRanges/" + i6+"/" + i7+"/gateway",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/ipRanges/items/items/properties/gateway/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err69];
}
else {
vErrors.push(err69);
}
errors++;
}
}
}
else {
const err70 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/ipRanges/" + i6+"/" + i7,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/ipRanges/items/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err70];
}
else {
vErrors.push(err70);
}
errors++;
}
}
}
else {
const err71 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/ipRanges/" + i6,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/ipRanges/items/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err71];
}
else {
vErrors.push(err71);
}
errors++;
}
}
}
else {
const err72 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/ipRanges",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/ipRanges/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err72];
}
else {
vErrors.push(err72);
}
errors++;
}
}
if(data24.bandwidth !== undefined){
let data38 = data24.bandwidth;
if(data38 && typeof data38 == "object" && !Array.isArray(data38)){
if(data38.ingressRate !== undefined){
let data39 = data38.ingressRate;
if(!(((typeof data39 == "number") && (!(data39 % 1) && !isNaN(data39))) && (isFinite(data39)))){
const err73 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/bandwidth/ingressRate",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/bandwidth/properties/ingressRate/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err73];
}
else {
vErrors.push(err73);
}
errors++;
}
if((typeof data39 == "number") && (isFinite(data39))){
if(data39 < 0 || isNaN(data39)){
const err74 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/bandwidth/ingressRate",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/bandwidth/properties/ingressRate/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err74];
}
else {
vErrors.push(err74);
}
errors++;
}
}
}
if(data38.ingressBurst !== undefined){
let data40 = data38.ingressBurst;
if(!(((typeof data40 == "number") && (!(data40 % 1) && !isNaN(data40))) && (isFinite(data40)))){
const err75 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/bandwidth/ingressBurst",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/bandwidth/properties/ingressBurst/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err75];
}
else {
vErrors.push(err75);
}
errors++;
}
if((typeof data40 == "number") && (isFinite(data40))){
if(data40 < 0 || isNaN(data40)){
const err76 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/bandwidth/ingressBurst",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/bandwidth/properties/ingressBurst/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err76];
}
else {
vErrors.push(err76);
}
errors++;
}
}
}
if(data38.egressRate !== undefined){
let data41 = data38.egressRate;
if(!(((typeof data41 == "number") && (!(data41 % 1) && !isNaN(data41))) && (isFinite(data41)))){
const err77 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/bandwidth/egressRate",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/bandwidth/properties/egressRate/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err77];
}
else {
vErrors.push(err77);
}
errors++;
}
if((typeof data41 == "number") && (isFinite(data41))){
if(data41 < 0 || isNaN(data41)){
const err78 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/bandwidth/egressRate",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/bandwidth/properties/egressRate/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err78];
}
else {
vErrors.push(err78);
}
errors++;
}
}
}
if(data38.egressBurst !== undefined){
let data42 = data38.egressBurst;
if(!(((typeof data42 == "number") && (!(data42 % 1) && !isNaN(data42))) && (isFinite(data42)))){
const err79 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/bandwidth/egressBurst",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/bandwidth/properties/egressBurst/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err79];
}
else {
vErrors.push(err79);
}
errors++;
}
if((typeof data42 == "number") && (isFinite(data42))){
if(data42 < 0 || isNaN(data42)){
const err80 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/bandwidth/egressBurst",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/bandwidth/properties/egressBurst/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err80];
}
else {
vErrors.push(err80);
}
errors++;
}
}
}
}
else {
const err81 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/bandwidth",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/bandwidth/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err81];
}
else {
vErrors.push(err81);
}
errors++;
}
}
if(data24.dns !== undefined){
let data43 = data24.dns;
if(data43 && typeof data43 == "object" && !Array.isArray(data43)){
if(data43.servers !== undefined){
let data44 = data43.servers;
if(Array.isArray(data44)){
const len8 = data44.length;
for(let i8=0; i8<len8; i8++){
if(typeof data44[i8] !== "string"){
const err82 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/dns/servers/" + i8,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/dns/properties/servers/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err82];
}
else {
vErrors.push(err82);
}
errors++;
}
}
}
else {
const err83 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/dns/servers",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/dns/properties/servers/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err83];
}
else {
vErrors.push(err83);
}
errors++;
}
}
if(data43.searches !== undefined){
let data46 = data43.searches;
if(Array.isArray(data46)){
const len9 = data46.length;
for(let i9=0; i9<len9; i9++){
if(typeof data46[i9] !== "string"){
const err84 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/dns/searches/" + i9,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/dns/properties/searches/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err84];
}
else {
vErrors.push(err84);
}
errors++;
}
}
}
else {
const err85 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/dns/searches",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/dns/properties/searches/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err85];
}
else {
vErrors.push(err85);
}
errors++;
}
}
if(data43.options !== undefined){
let data48 = data43.options;
if(Array.isArray(data48)){
const len10 = data48.length;
for(let i10=0; i10<len10; i10++){
if(typeof data48[i10] !== "string"){
const err86 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/dns/options/" + i10,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/dns/properties/options/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err86];
}
else {
vErrors.push(err86);
}
errors++;
}
}
}
else {
const err87 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/dns/options",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/dns/properties/options/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err87];
}
else {
vErrors.push(err87);
}
errors++;
}
}
}
else {
const err88 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/dns",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/dns/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err88];
}
else {
vErrors.push(err88);
}
errors++;
}
}
if(data24.ips !== undefined){
let data50 = data24.ips;
if(Array.isArray(data50)){
const len11 = data50.length;
for(let i11=0; i11<len11; i11++){
if(typeof data50[i11] !== "string"){
const err89 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/ips/" + i11,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/ips/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err89];
}
else {
vErrors.push(err89);
}
errors++;
}
}
}
else {
const err90 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/ips",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/ips/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err90];
}
else {
vErrors.push(err90);
}
errors++;
}
}
if(data24.mac !== undefined){
if(typeof data24.mac !== "string"){
const err91 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/mac",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/mac/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err91];
}
else {
vErrors.push(err91);
}
errors++;
}
}
if(data24.infinibandGUID !== undefined){
if(typeof data24.infinibandGUID !== "string"){
const err92 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/infinibandGUID",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/infinibandGUID/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err92];
}
else {
vErrors.push(err92);
}
errors++;
}
}
if(data24.deviceID !== undefined){
if(typeof data24.deviceID !== "string"){
const err93 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/deviceID",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/deviceID/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err93];
}
else {
vErrors.push(err93);
}
errors++;
}
}
if(data24.aliases !== undefined){
let data55 = data24.aliases;
if(Array.isArray(data55)){
const len12 = data55.length;
for(let i12=0; i12<len12; i12++){
if(typeof data55[i12] !== "string"){
const err94 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/aliases/" + i12,schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/aliases/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err94];
}
else {
vErrors.push(err94);
}
errors++;
}
}
}
else {
const err95 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/aliases",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/aliases/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err95];
}
else {
vErrors.push(err95);
}
errors++;
}
}
if(data24.cgroupPath !== undefined){
if(typeof data24.cgroupPath !== "string"){
const err96 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/cgroupPath",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/cgroupPath/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err96];
}
else {
vErrors.push(err96);
}
errors++;
}
}
if(data24["io.kubernetes.cri.pod-annotations"] !== undefined){
let data58 = data24["io.kubernetes.cri.pod-annotations"];
if(data58 && typeof data58 == "object" && !Array.isArray(data58)){
for(const key3 in data58){
if(typeof data58[key3] !== "string"){
const err97 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/io.kubernetes.cri.pod-annotations/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/io.kubernetes.cri.pod-annotations/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err97];
}
else {
vErrors.push(err97);
}
errors++;
}
}
}
else {
const err98 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig/io.kubernetes.cri.pod-annotations",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/properties/io.kubernetes.cri.pod-annotations/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err98];
}
else {
vErrors.push(err98);
}
errors++;
}
}
}
else {
const err99 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/runtimeConfig/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err99];
}
else {
vErrors.push(err99);
}
errors++;
}
}
if(data8.prevResult !== undefined){
let data60 = data8.prevResult;
if((!(data60 && typeof data60 == "object" && !Array.isArray(data60))) && (data60 !== null)){
const err100 = {instancePath:instancePath+"/plugins/" + i1+"/prevResult",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/1/properties/prevResult/type",keyword:"type",params:{type: schema11.allOf[2].properties.plugins.allOf[2].items.allOf[1].properties.prevResult.type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err100];
}
else {
vErrors.push(err100);
}
errors++;
}
}
}
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.runtimeConfig !== undefined){
let data61 = data8.runtimeConfig;
const err101 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/2/properties/runtimeConfig/allOf/0/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err101];
}
else {
vErrors.push(err101);
}
errors++;
if(data61 && typeof data61 == "object" && !Array.isArray(data61)){
for(const key4 in data61){
if(!(func2.call(schema11.allOf[2].properties.plugins.allOf[2].items.allOf[2].properties.runtimeConfig.allOf[1].properties, key4))){
const err102 = {instancePath:instancePath+"/plugins/" + i1+"/runtimeConfig",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/2/properties/runtimeConfig/allOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err102];
}
else {
vErrors.push(err102);
}
errors++;
}
}
}
}
if(data8.args !== undefined){
const err103 = {instancePath:instancePath+"/plugins/" + i1+"/args",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/2/properties/args/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err103];
}
else {
vErrors.push(err103);
}
errors++;
}
if(data8.prevResult !== undefined){
const err104 = {instancePath:instancePath+"/plugins/" + i1+"/prevResult",schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/2/properties/prevResult/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err104];
}
else {
vErrors.push(err104);
}
errors++;
}
for(const key5 in data8){
if(pattern9.test(key5)){
const err105 = {instancePath:instancePath+"/plugins/" + i1+"/" + key5.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/allOf/2/properties/plugins/allOf/2/items/allOf/2/patternProperties/%5Ecni%5C.dev~1/not",keyword:"not",params:{},message:"must NOT be valid"};
if(vErrors === null){
vErrors = [err105];
}
else {
vErrors.push(err105);
}
errors++;
}
}
}
}
}
}
}
validate10.errors = vErrors;
return errors === 0;
}

